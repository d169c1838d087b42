/**
 * The repeated-game half of `samegame run` (designs with a `play` block): the dry run, the match
 * engine (synchronous calls) or round batches (--batch), and the closing summary.
 */
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { runMatchBatches, type MatchBatchSummary } from '../live/repeated/batch.js';
import { runMatchWaves } from '../live/adaptive/waves.js';
import type { AdaptiveStop } from '../live/design/stop.js';
import { planRepeated, planRepeatedBatch, storedDecisions } from '../live/repeated/dry-run.js';
import { planMatches, type MatchPlan } from '../live/repeated/plan.js';
import { vendorOf } from '../live/batch/vendors.js';
import { BatchChunks } from '../live/store/batch-chunks.js';
import { runMatches } from '../live/repeated/engine.js';
import type { ModelSpec, Provider } from '../live/types.js';
import type { Session } from '../live/runner/session.js';
import { stillPlayable } from '../live/adaptive/matches.js';
import type { StoredMove } from '../live/store/store.js';
import { storeIfPresent } from '../live/store/open.js';
import { storeGuard } from '../live/store/integrity.js';
import { TrialStore } from '../live/store/store.js';
import { batchLimits, type BatchFlags } from './run-batch.js';
import { commandsMsg } from './messages.js';

export interface RepeatedFlags extends BatchFlags {
  concurrency: number; rpm?: number; tpm?: number; seed: number; verifyStore?: boolean;
}

/** A repeated game goes through the Batch API as a whole (its rounds advance together): with --batch, or when every model says batch: true. */
export const viaBatch = (session: Session, o: Pick<RepeatedFlags, 'batch'>): boolean =>
  o.batch === true || session.design.models.every((m) => m.batch === true);


/** The dry run of a repeated design (an adaptive one's matches up to max_trials); returns its decisions already stored and the stored moves. */
export async function repeatedDryRun(session: Session, storePath: string, o: RepeatedFlags, logger: Logger): Promise<{ stored: number;
  moves: readonly StoredMove[]; plans: readonly MatchPlan[] }> {
  const batch = viaBatch(session, o);
  const rule = session.design.stop;
  const plans = planMatches(session.design);
  const out = storeGuard(storePath, (store) => {
    if (batch) for (const m of session.design.models) vendorOf(m);
    const run = store?.findRun(session.hash);
    const moves = run ? store!.playMoves(run.id) : [];
    // an adaptive design's matches up to max_trials, in the units its stored moves leave open; its bound counts what every
    // match up to max_trials has stored
    const only = rule ? stillPlayable(rule, session.design, moves, plans) : () => true;
    const boundStored = rule ? storedDecisions(plans, moves, (m) => m.rep < rule.maxTrials) : undefined;
    if (batch) {
      const inOpen = store && run ? BatchChunks.readOnly(store)?.inOpenChunks(run.id) : undefined;
      const p = planRepeatedBatch(session.design, moves, inOpen ?? new Set(), session.prices, batchLimits(o), only, plans);
      return { moves, plans, stored: boundStored ?? p.stored,
        text: `${commandsMsg.repeatedDryRun(p.matches, p.rounds)}\n${commandsMsg.dryRun(p.files, p.lines, p.total, p.stored,
        p.inBatches, p.inputTokens, p.outputTokens, commandsMsg.cost(p.cost))}` };
    }
    const plan = planRepeated(session.design, moves, session.prices, only, plans);
    return { moves, plans, stored: boundStored ?? plan.stored, text: commandsMsg.runRepeatedDryRun(plan.matches, plan.rounds, plan.calls, plan.total,
      plan.stored, plan.inputTokens, plan.outputTokens, commandsMsg.cost(plan.cost)) };
  }, storeIfPresent(storePath, { verify: o.verifyStore }));
  logger.print?.(`${out.text}\n`);
  return out;
}

type RepeatedArgs = {
  session: Session; store: TrialStore; storePath: string; runId: number; resumed: boolean; o: RepeatedFlags;
  logger: Logger & { summary(m: string): void }; pool: { get(model: ModelSpec): Provider }; stop: AbortSignal; abort: AbortSignal;
};

/** The round batches of a repeated run (of the matches `only`, an adaptive wave's, when given). */
function matchBatches(a: RepeatedArgs, only?: ReadonlySet<number>): Promise<MatchBatchSummary> {
  const { session, o } = a;
  return runMatchBatches({
    store: a.store, storePath: a.storePath, runId: a.runId, designName: session.design.name, design: session.design, env: process.env,
    timeoutMs: o.timeoutMs, maxWaitMs: o.maxWait * 1000, limits: batchLimits(o), pollMs: o.poll * 1000, wait: o.wait, maxRounds: o.maxRetries + 1,
    prices: session.prices, logger: a.logger, stop: a.stop, ...(only ? { only } : {}),
  });
}

/** The match engine's options of a repeated run. */
function engineOptions(a: RepeatedArgs) {
  const { session, o, logger } = a;
  return {
    store: a.store, runId: a.runId, design: session.design, providers: a.pool, concurrency: o.concurrency, rpm: o.rpm, tpm: o.tpm,
    maxRetries: o.maxRetries, seed: o.seed, logger, stop: a.stop, abort: a.abort, timeoutMs: o.timeoutMs, maxWaitMs: o.maxWait * 1000,
    onStart: (s: { matches: number; matchesDone: number; decisions: number; stored: number }) =>
      logger.info(commandsMsg.repeatedPlan(session.design.name, a.runId, s.matches, s.matchesDone, s.decisions, s.stored, a.resumed)),
  };
}

/** An adaptive repeated run (a stop rule): waves of matches, synchronous or as round batches (live/adaptive/). */
async function runRepeatedWaves(a: RepeatedArgs, rule: AdaptiveStop): Promise<void> {
  let open = 0; // batches the last wave left open (submitted, not waited for): a later run collects them
  const execute = viaBatch(a.session, a.o) ? async (only: ReadonlySet<number>) => {
    const b = await matchBatches(a, only);
    open = b.open;
    return { total: b.total, alreadyDone: b.alreadyDone, ok: b.stored, invalid: 0, error: b.pending, dropped: 0, calls: b.stored, tokens: b.tokens,
      outcome: 'complete' as const };
  } : undefined;
  const w = await runMatchWaves({ ...engineOptions(a), rule, execute });
  const c = a.store.statusCounts(a.runId);
  // 130 = interrupted by SIGINT (128 + 2): decisions complete of the most the rule can ask for.
  if (w.outcome === 'aborted') throw new UserError(commandsMsg.aborted(c.ok + c.invalid, w.fixed), 130);
  if (w.outcome !== 'complete' || a.stop.aborted) throw new UserError(commandsMsg.interrupted(c.ok + c.invalid, w.fixed), 130);
  if (open > 0) a.logger.info(commandsMsg.submitted(open));
  const still = w.statuses.filter((s) => s.stopped === null).length;
  if (still > 0) a.logger.summary(commandsMsg.adaptiveOpen(still, w.statuses.length));
  else {
    a.logger.summary(commandsMsg.adaptiveRepeatedDone(w.statuses.filter((s) => s.stopped !== 'max_trials').length, w.statuses.length,
      w.matchesUsed, w.matchesFixed, w.used, w.fixed));
  }
  a.logger.summary(commandsMsg.runDone(c.ok + c.invalid + c.error, c.ok, c.invalid, c.error, w.tokens, a.storePath));
  if (a.o.wait !== false) a.logger.summary(commandsMsg.nextCommand(a.storePath));
}

export async function runRepeated(a: RepeatedArgs): Promise<void> {
  const { session, o, logger } = a;
  if (session.design.stop) return runRepeatedWaves(a, session.design.stop);
  if (viaBatch(session, o)) {
    const r = await matchBatches(a);
    if (a.stop.aborted) throw new UserError(commandsMsg.repeatedInterrupted(r.matches - r.matchesOpen, r.matches), 130);
    const c = a.store.statusCounts(a.runId);
    if (r.open > 0) logger.info(commandsMsg.submitted(r.open));
    logger.summary(commandsMsg.repeatedDone(r.matches, r.matches - r.matchesOpen, r.forfeited, c.ok, c.invalid, c.error, r.tokens, a.storePath));
    if (o.wait) logger.summary(commandsMsg.nextCommand(a.storePath));
    return;
  }
  const r = await runMatches(engineOptions(a));
  if (r.outcome !== 'complete') {
    throw new UserError(r.outcome === 'aborted' ? commandsMsg.repeatedAborted(r.matchesDone, r.matches) : commandsMsg.repeatedInterrupted(r.matchesDone,
      r.matches), 130);
  }
  if (r.matchesDone < r.matches) logger.warn(commandsMsg.repeatedOpen(r.matches - r.matchesDone));
  logger.summary(commandsMsg.repeatedDone(r.matches, r.matchesDone, r.forfeited, r.ok, r.invalid, r.error, r.tokens, a.storePath));
  logger.summary(commandsMsg.nextCommand(a.storePath));
}
