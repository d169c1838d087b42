/**
 * The batch half of `samegame run`: which models go through their vendor's batch API (all with --batch, or
 * those with `batch: true`), the batch dry run, and the batch run itself after the synchronous
 * models are done.
 */
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { BATCH_LIMITS, type BatchLimits } from '../live/batch/chunks.js';
import { planBatchRun, type BatchPlan } from '../live/batch/dry-run.js';
import { runBatches, type BatchSummary } from '../live/batch/run.js';
import { vendorOf } from '../live/batch/vendors.js';
import type { Session } from '../live/runner/session.js';
import { BatchChunks } from '../live/store/batch-chunks.js';
import { storeIfPresent } from '../live/store/open.js';
import { storeGuard } from '../live/store/integrity.js';
import type { RunInfo, TrialStore } from '../live/store/store.js';
import type { TrialSpec } from '../live/types.js';
import { commandsMsg } from './messages.js';

export interface BatchFlags {
  batch?: boolean; batchSize?: number; poll: number; wait: boolean; maxRetries: number; timeoutMs: number; maxWait: number;
}

/** The models of a one-shot session whose trials go through their vendor's batch API (each has one: else a UserError). */
export function batchModels(session: Session, flag: boolean): Set<string> {
  const ids = new Set(session.design.models.filter((m) => flag || m.batch === true).map((m) => m.id));
  for (const m of session.design.models) if (ids.has(m.id)) vendorOf(m);
  return ids;
}

/** The specs of a session split into those sent synchronously and those sent as batches. */
export function splitBatch(session: Session, flag: boolean): { sync: TrialSpec[]; batch: TrialSpec[] } {
  const ids = batchModels(session, flag);
  return {
    sync: session.specs.filter((s) => !ids.has(s.model.id)),
    batch: session.specs.filter((s) => ids.has(s.model.id)),
  };
}

export function batchLimits(o: BatchFlags): BatchLimits {
  if (o.batchSize !== undefined && o.batchSize > BATCH_LIMITS.maxLines) throw new UserError(commandsMsg.badBatchSize(o.batchSize, BATCH_LIMITS.maxLines));
  return { maxLines: o.batchSize ?? BATCH_LIMITS.maxLines, maxBytes: BATCH_LIMITS.maxBytes };
}

/**
 * The batch plan of `specs` (decisions or comprehension probes) on the store as it is — none yet: nothing stored, nothing in open
 * batches —, `stored` saying which of the run's specs are already answered.
 */
export function batchDryRunPlan(session: Session, specs: readonly TrialSpec[], store: TrialStore | undefined,
  stored: (store: TrialStore, run: RunInfo) => (s: TrialSpec) => boolean, o: BatchFlags): BatchPlan {
  const run = store?.findRun(session.hash);
  const inOpen = store && run ? BatchChunks.readOnly(store)?.inOpenChunks(run.id) : undefined;
  return planBatchRun(specs, store && run ? stored(store, run) : () => false, inOpen ?? new Set(), session.prices, batchLimits(o));
}

/** Print the batch dry run of `specs` (reads the store when it exists; writes nothing); returns how many are already stored. */
export function printBatchDryRun(session: Session, specs: readonly TrialSpec[], storePath: string, o: BatchFlags, logger: Logger): number {
  return storeGuard(storePath, (store) => {
    const plan = batchDryRunPlan(session, specs, store, (st, run) => (s) => st.isComplete(run.id, { model: s.model.id, game: s.game, framing: s.framing,
      rep: s.rep }), o);
    logger.print?.(`${commandsMsg.dryRun(plan.files, plan.lines, plan.total, plan.stored, plan.inBatches, plan.inputTokens, plan.outputTokens,
      commandsMsg.cost(plan.cost))}\n`);
    return plan.stored;
  }, storeIfPresent(storePath, {}));
}

/**
 * Run the batch part; a summary line says what is stored, open or still pending. The probes an earlier run left in open
 * chunks are collected with it, unless `decisionsOnly` (an adaptive run's waves: its probe phase collects them).
 */
export async function runBatchPart(a: {
  session: Session; specs: readonly TrialSpec[]; store: TrialStore; storePath: string; runId: number; o: BatchFlags; logger: Logger; stop: AbortSignal;
  decisionsOnly?: boolean;
}): Promise<BatchSummary> {
  const r = await runBatches({
    store: a.store, storePath: a.storePath, runId: a.runId, designName: a.session.design.name, ...(a.decisionsOnly ? {} : { design: a.session.design }),
    specs: a.specs, env: process.env,
    timeoutMs: a.o.timeoutMs, maxWaitMs: a.o.maxWait * 1000, limits: batchLimits(a.o), pollMs: a.o.poll * 1000, wait: a.o.wait, maxRounds: a.o.maxRetries + 1,
    prices: a.session.prices, logger: a.logger, stop: a.stop,
  });
  if (r.open > 0) a.logger.info(commandsMsg.submitted(r.open));
  else if (r.pending > 0) a.logger.warn(commandsMsg.stillPending(r.pending));
  return r;
}
