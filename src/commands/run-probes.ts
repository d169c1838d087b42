/**
 * The comprehension probes of `samegame run` (design `probes:` or `--probes N`, docs/methods.md
 * §18c): counted with their cost by the dry run, asked synchronously before the decisions (one-shot
 * and repeated designs alike), each stored in the probe table as it arrives; a run stopped while
 * asking them ends there (exit 130) and resumes with the probes not yet answered.
 */
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { planProbes, runProbes } from '../live/probes/run.js';
import type { Session } from '../live/runner/session.js';
import { useStoreIfPresent } from '../live/store/open.js';
import type { TrialStore } from '../live/store/store.js';
import type { ModelSpec, Provider } from '../live/types.js';
import { commandsMsg } from './messages.js';

export interface ProbeFlags {
  concurrency: number; rpm?: number; tpm?: number; maxRetries: number; seed: number; timeoutMs: number; maxWait: number; verifyStore?: boolean;
}

/** The dry run's line of the probes (none when the run asks none). */
export function probesDryRun(session: Session, storePath: string, o: ProbeFlags, logger: Logger): void {
  if (session.probes.length === 0) return;
  const plan = useStoreIfPresent(storePath, { verify: o.verifyStore }, (store) => {
    const run = store?.findRun(session.hash);
    return planProbes(session.probes, store, run?.id, session.prices);
  });
  const cost = plan.cost === undefined ? commandsMsg.noPrices() : `$${plan.cost.toFixed(4)}`;
  logger.print?.(`${commandsMsg.probesDryRun(session.design.probes ?? 0, plan.calls, plan.total, plan.stored, plan.inputTokens, plan.outputTokens, cost)}\n`);
}

/** Ask the probes not yet answered; a stop or abort while asking ends the run here (exit 130). */
export async function askProbes(a: {
  session: Session; store: TrialStore; runId: number; o: ProbeFlags; logger: Logger; pool: { get(model: ModelSpec): Provider };
  stop: AbortSignal; abort: AbortSignal;
}): Promise<void> {
  const { session, o, logger } = a;
  if (session.probes.length === 0) return;
  const r = await runProbes(session.probes, {
    store: a.store, runId: a.runId, providers: a.pool, concurrency: o.concurrency, rpm: o.rpm, tpm: o.tpm, maxRetries: o.maxRetries, seed: o.seed,
    logger, stop: a.stop, abort: a.abort, timeoutMs: o.timeoutMs, maxWaitMs: o.maxWait * 1000,
    onStart: (done) => logger.info(commandsMsg.probesPlan(session.probes.length, done)),
  });
  if (r.outcome !== 'complete') throw new UserError(commandsMsg.probesInterrupted(r.alreadyDone + r.ok + r.invalid, r.total), 130);
  logger.info(commandsMsg.probesDone(r.ok, r.invalid, r.error));
}
