/**
 * The comprehension probes of `samegame run` (design `probes:` or `--probes N`, docs/methods.md
 * §18c): counted with their cost by the dry run; the probes of a model whose decisions go
 * synchronously asked before the decisions (one-shot and repeated designs alike), each stored in
 * the probe table as it arrives; a run stopped while asking them ends there (exit 130) and resumes
 * with the probes not yet answered. The probes of a model whose decisions go through its vendor's
 * batch API are sent as batches too, in chunks of their own (live/batch/keys.ts): beside the
 * decisions' batches in a fixed one-shot run, before the rounds of a repeated game or the waves of
 * an adaptive run (batchProbes, which also collects the probes an earlier run left in open batches).
 */
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { planProbes, runProbes } from '../live/probes/run.js';
import { probeAnswered, storedProbes } from '../live/probes/store.js';
import type { Session } from '../live/runner/session.js';
import { storeIfPresent } from '../live/store/open.js';
import { storeGuard } from '../live/store/integrity.js';
import { BatchChunks } from '../live/store/batch-chunks.js';
import type { TrialStore } from '../live/store/store.js';
import type { ModelSpec, Provider, TrialSpec } from '../live/types.js';
import { batchDryRunPlan, runBatchPart, type BatchFlags } from './run-batch.js';
import { commandsMsg } from './messages.js';

export interface ProbeFlags extends BatchFlags {
  concurrency: number; rpm?: number; tpm?: number; maxRetries: number; seed: number; timeoutMs: number; maxWait: number; verifyStore?: boolean;
}

/** A session's probes, asked synchronously or sent as batches as their model's decisions are. */
export interface ProbeSplit {
  readonly sync: readonly TrialSpec[];
  readonly batch: readonly TrialSpec[];
}

/** The probes split by the models whose decisions go as batches. */
export function splitProbes(session: Session, batchModels: ReadonlySet<string>): ProbeSplit {
  return { sync: session.probes.filter((p) => !batchModels.has(p.model.id)), batch: session.probes.filter((p) => batchModels.has(p.model.id)) };
}


/** The dry run's lines of the probes: the synchronous calls, the batch requests (none when the run asks none). */
export function probesDryRun(session: Session, probes: ProbeSplit, storePath: string, o: ProbeFlags, logger: Logger): void {
  if (session.probes.length === 0) return;
  const perCell = session.design.probes ?? 0;
  const lines = storeGuard(storePath, (store) => {
    const run = store?.findRun(session.hash);
    const out: string[] = [];
    if (probes.sync.length > 0) {
      const plan = planProbes(probes.sync, store, run?.id, session.prices);
      out.push(commandsMsg.probesDryRun(perCell, plan.calls, plan.total, plan.stored, plan.inputTokens, plan.outputTokens, commandsMsg.cost(plan.cost)));
    }
    if (probes.batch.length > 0) {
      const p = batchDryRunPlan(session, probes.batch, store, (st, r) => probeAnswered(st, r.id), o);
      out.push(commandsMsg.probesBatchDryRun(perCell, p.files, p.lines, p.total, p.stored, p.inBatches, p.inputTokens, p.outputTokens,
        commandsMsg.cost(p.cost)));
    }
    return out;
  }, storeIfPresent(storePath, { verify: o.verifyStore }));
  for (const l of lines) logger.print?.(`${l}\n`);
}

/** Ask the probes of synchronous models not yet answered; a stop or abort while asking ends the run here (exit 130). */
export async function askProbes(a: {
  session: Session; probes: ProbeSplit; store: TrialStore; runId: number; o: ProbeFlags; logger: Logger; pool: { get(model: ModelSpec): Provider };
  stop: AbortSignal; abort: AbortSignal;
}): Promise<void> {
  const { o, logger } = a;
  const specs = a.probes.sync;
  if (specs.length === 0) return;
  const r = await runProbes(specs, {
    store: a.store, runId: a.runId, providers: a.pool, concurrency: o.concurrency, rpm: o.rpm, tpm: o.tpm, maxRetries: o.maxRetries, seed: o.seed,
    logger, stop: a.stop, abort: a.abort, timeoutMs: o.timeoutMs, maxWaitMs: o.maxWait * 1000,
    onStart: (done) => logger.info(commandsMsg.probesPlan(specs.length, done)),
  });
  if (r.outcome !== 'complete') throw new UserError(commandsMsg.probesInterrupted(r.alreadyDone + r.ok + r.invalid, r.total), 130);
  // a resume that asked nothing has said so in its plan line ("N already stored, 0 to ask")
  if (r.ok + r.invalid + r.error > 0) logger.info(commandsMsg.probesDone(r.ok, r.invalid, r.error));
}

/** What the probe table holds of a run's batch probes (of the models `batched`), as the closing line of their batches says it. */
export function batchProbesStored(store: TrialStore, runId: number, batched: ReadonlySet<string>, logger: Logger): void {
  const rows = storedProbes(store, runId).filter((p) => batched.has(p.model));
  const n = (s: string) => rows.filter((p) => p.status === s).length;
  logger.info(commandsMsg.probesDone(n('ok'), n('invalid'), n('error')));
}

/**
 * The probe phase of a run whose decisions go as batches round by round or wave by wave (a repeated game, an adaptive run):
 * the probes of batch models sent as batches of their own, with the probes an earlier run left in open chunks (collected,
 * also when this run asks none), and waited for as the run waits (--no-wait: submitted, the run goes on), before the rounds
 * or waves, which leave probe chunks alone. Stopped while waiting: exit 130, the batches stay open and the next run collects them.
 */
export async function batchProbes(a: {
  session: Session; probes: ProbeSplit; store: TrialStore; storePath: string; runId: number; o: ProbeFlags; logger: Logger; stop: AbortSignal;
}): Promise<void> {
  const specs = a.probes.batch;
  if (specs.length === 0 && !BatchChunks.readOnly(a.store)?.open(a.runId).some((c) => c.kind === 'probe')) return;
  const r = await runBatchPart({ session: a.session, specs, store: a.store, storePath: a.storePath, runId: a.runId, o: a.o, logger: a.logger, stop: a.stop });
  if (a.stop.aborted) throw new UserError(commandsMsg.probesInterrupted(r.alreadyDone + r.stored + r.earlierStored, r.total + r.earlier), 130);
  // every model of these runs sends its decisions, and so its probes, as batches
  if (r.open === 0) batchProbesStored(a.store, a.runId, new Set(a.session.design.models.map((m) => m.id)), a.logger);
}
