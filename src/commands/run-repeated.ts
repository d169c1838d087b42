/**
 * The repeated-game half of `samegame run` (designs with a `play` block): the dry run, the match
 * engine (synchronous calls) or round batches (--batch), and the closing summary.
 */
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { runMatchBatches } from '../live/repeated/batch.js';
import { planRepeated, planRepeatedBatch } from '../live/repeated/dry-run.js';
import { vendorOf } from '../live/batch/vendors.js';
import { BatchChunks } from '../live/store/batch-chunks.js';
import { runMatches } from '../live/repeated/engine.js';
import type { ModelSpec, Provider } from '../live/types.js';
import type { Session } from '../live/runner/session.js';
import { useStoreIfPresent } from '../live/store/open.js';
import { TrialStore } from '../live/store/store.js';
import { batchLimits, type BatchFlags } from './run-batch.js';
import { commandsMsg } from './messages.js';

export interface RepeatedFlags extends BatchFlags {
  concurrency: number; rpm?: number; tpm?: number; seed: number; verifyStore?: boolean;
}

/** A repeated game goes through the Batch API as a whole (its rounds advance together): with --batch, or when every model says batch: true. */
export const viaBatch = (session: Session, o: Pick<RepeatedFlags, 'batch'>): boolean =>
  o.batch === true || session.design.models.every((m) => m.batch === true);

const costText = (cost: number | undefined) => (cost === undefined ? commandsMsg.noPrices() : `$${cost.toFixed(4)}`);

export async function repeatedDryRun(session: Session, storePath: string, o: RepeatedFlags, logger: Logger): Promise<void> {
  const batch = viaBatch(session, o);
  const text = useStoreIfPresent(storePath, { verify: o.verifyStore }, (store) => {
    if (batch) for (const m of session.design.models) vendorOf(m);
    const run = store?.findRun(session.hash);
    const moves = run ? store!.playMoves(run.id) : [];
    if (batch) {
      const inOpen = store && run ? BatchChunks.readOnly(store)?.inOpenChunks(run.id) : undefined;
      const p = planRepeatedBatch(session.design, moves, inOpen ?? new Set(), session.prices, batchLimits(o));
      return `${commandsMsg.repeatedDryRun(p.matches, p.rounds)}\n${commandsMsg.dryRun(p.files, p.lines, p.total, p.stored, p.inBatches, p.inputTokens,
        p.outputTokens, costText(p.cost))}`;
    }
    const plan = planRepeated(session.design, moves, session.prices);
    return commandsMsg.runRepeatedDryRun(plan.matches, plan.rounds, plan.calls, plan.total, plan.stored, plan.inputTokens, plan.outputTokens,
      costText(plan.cost));
  });
  logger.print?.(`${text}\n`);
}

export async function runRepeated(a: {
  session: Session; store: TrialStore; storePath: string; runId: number; resumed: boolean; o: RepeatedFlags;
  logger: Logger & { summary(m: string): void }; pool: { get(model: ModelSpec): Provider }; stop: AbortSignal; abort: AbortSignal;
}): Promise<void> {
  const { session, o, logger } = a;
  const name = session.design.name;
  if (viaBatch(session, o)) {
    const r = await runMatchBatches({
      store: a.store, storePath: a.storePath, runId: a.runId, designName: name, design: session.design, env: process.env,
      timeoutMs: o.timeoutMs, maxWaitMs: o.maxWait * 1000, limits: batchLimits(o), pollMs: o.poll * 1000, wait: o.wait, maxRounds: o.maxRetries + 1,
      prices: session.prices, logger, stop: a.stop,
    });
    if (a.stop.aborted) throw new UserError(commandsMsg.repeatedInterrupted(r.matches - r.matchesOpen, r.matches), 130);
    const c = a.store.statusCounts(a.runId);
    if (r.open > 0) logger.info(commandsMsg.submitted(r.open));
    logger.summary(commandsMsg.repeatedDone(r.matches, r.matches - r.matchesOpen, r.forfeited, c.ok, c.invalid, c.error, r.tokens, a.storePath));
    if (o.wait) logger.summary(commandsMsg.nextCommand(a.storePath));
    return;
  }
  const r = await runMatches({
    store: a.store, runId: a.runId, design: session.design, providers: a.pool, concurrency: o.concurrency, rpm: o.rpm, tpm: o.tpm,
    maxRetries: o.maxRetries, seed: o.seed, logger, stop: a.stop, abort: a.abort, timeoutMs: o.timeoutMs, maxWaitMs: o.maxWait * 1000,
    onStart: (s) => logger.info(commandsMsg.repeatedPlan(name, a.runId, s.matches, s.matchesDone, s.decisions, s.stored, a.resumed)),
  });
  if (r.outcome !== 'complete') {
    throw new UserError(r.outcome === 'aborted' ? commandsMsg.repeatedAborted(r.matchesDone, r.matches) : commandsMsg.repeatedInterrupted(r.matchesDone,
      r.matches), 130);
  }
  if (r.matchesDone < r.matches) logger.warn(commandsMsg.repeatedOpen(r.matches - r.matchesDone));
  logger.summary(commandsMsg.repeatedDone(r.matches, r.matchesDone, r.forfeited, r.ok, r.invalid, r.error, r.tokens, a.storePath));
  logger.summary(commandsMsg.nextCommand(a.storePath));
}
