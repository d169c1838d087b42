/**
 * `samegame run DESIGN`: the session of the design with the flags applied, the store checked
 * before anything is created, plug-ins loaded, then the trials (synchronous, batch or repeated
 * play) stored as they arrive. The caller stops it: `stop` finishes the calls in flight, `signal`
 * drops them at once (the CLI aborts them on the first and second Ctrl-C); this function never
 * listens to process signals nor ends the process.
 */
import { resolve } from 'node:path';
import { defaultStore } from './command-options.js';
import { designWarnings, loadDesign } from '../live/design/design.js';
import { MAX_TRIALS_TOTAL } from '../live/design/schema.js';
import { parseUntil } from '../live/design/stop.js';
import { planRun } from '../live/runner/plan.js';
import { ProviderPool, DEFAULT_TIMEOUT_MS, isSimulated, providerIds } from '../live/providers/registry.js';
import { loadPlugins } from '../live/providers/plugins.js';
import { isPathSpec } from '../live/providers/plugin-spec.js';
import { runTrials, RUNNER_DEFAULTS, type RunSummary } from '../live/runner/runner.js';
import { ruleSpecs, runWaves } from '../live/runner/waves.js';
import { DEFAULT_MAX_HINT_MS } from '../live/runner/backoff.js';
import { prepareSession, runRow } from '../live/runner/session.js';
import { TrialStore } from '../live/store/store.js';
import { silentLogger, type Logger } from '../core/logger.js';
import type { TrialSpec } from '../live/types.js';
import { UserError } from '../core/errors.js';
import { storeGuard } from '../live/store/integrity.js';
import { storeIfPresent } from '../live/store/open.js';
import { batchModels, printBatchDryRun, runBatchPart, splitBatch, type BatchFlags } from './run-batch.js';
import type { BatchSummary } from '../live/batch/run.js';
import { BatchChunks } from '../live/store/batch-chunks.js';
import { openBatchesNotice } from '../live/batch/list.js';
import { batchKey } from '../live/batch/keys.js';
import type { Session } from '../live/runner/session.js';
import { assertStoreOrNew } from '../live/store/identify.js';
import { checkOutFile } from '../core/out-dir.js';
import { repeatedDryRun, runRepeated, viaBatch } from './run-repeated.js';
import { frontierSpecs } from '../live/repeated/batch.js';
import { commandsMsg } from './messages.js';
import { askProbes, batchProbes, batchProbesStored, probesDryRun, splitProbes, type ProbeSplit } from './run-probes.js';
import { adaptiveDryRun } from './run-adaptive.js';
import { checkSealedDesign } from './seal-check.js';

/** The defaults of the run flags, and the built-in providers (the CLI's help names them). */
export const RUN_DEFAULTS = { ...RUNNER_DEFAULTS, timeoutMs: DEFAULT_TIMEOUT_MS, maxWait: DEFAULT_MAX_HINT_MS / 1000, poll: 30 } as const;
export { providerIds };

/** The logger of a run: a Logger that closes its progress line and prints the closing summary even when quiet. */
export type RunLogger = Logger & { endLine(): void; summary(m: string): void };

/** The flags of a run, every default applied. */
interface RunFlags extends BatchFlags {
  store?: string; provider?: string; baseUrl?: string; model?: string; concurrency: number; rpm?: number; tpm?: number;
  dryRun?: boolean; maxRetries: number; timeoutMs: number; maxWait: number; seed: number; priceIn?: number; priceOut?: number;
  verifyStore?: boolean;
  /** An adaptive run's stop rule, key=value pairs of the design's stop block (in place of the design's). */
  until?: string;
  /** Comprehension probes per model × game × framing (in place of the design's `probes:`). */
  probes?: number;
}

/** The options of `run`: the design file and the flags of `samegame run` (RUN_DEFAULTS when not given). */
export interface RunOptions extends Partial<RunFlags> {
  /** The design (YAML) file. */
  readonly design: string;
  /** Messages, progress and the closing summary; `logger.print` receives a dry run's plan. */
  readonly logger?: Logger;
  /** Once aborted: dispatch no more, finish and store the calls in flight; the run then rejects (UserError, exit code 130). */
  readonly stop?: AbortSignal;
  /** Once aborted (as fetch's signal): drop the calls in flight at once and stop; the trials stored are kept; the run rejects (UserError, exit code 130). */
  readonly signal?: AbortSignal;
}

/** Where the trials went: the store, and the run within it (none after a dry run). */
export interface RunResult {
  readonly store: string;
  readonly runId?: number;
}

/** The session of a run: flags applied, a --provider module path made absolute (it is read from the working directory). */
function sessionOf(designPath: string, o: RunFlags, logger: Logger): Session {
  const flagPrices = o.priceIn !== undefined || o.priceOut !== undefined ? { input: o.priceIn ?? 0, output: o.priceOut ?? 0 } : undefined;
  const provider = o.provider !== undefined && isPathSpec(o.provider) ? resolve(o.provider) : o.provider;
  const loaded = loadDesign(designPath);
  if (o.probes !== undefined && loaded.enrichment) throw new UserError(commandsMsg.probesNotForEnrichment(designPath));
  const stopped = o.until === undefined ? loaded : { ...loaded, stop: parseUntil(o.until, loaded) };
  const design = o.probes === undefined ? stopped : { ...stopped, probes: o.probes };
  const probes = design.models.length * design.games.length * design.framings.length * (o.probes ?? 0);
  if (probes > MAX_TRIALS_TOTAL) throw new UserError(commandsMsg.probesTotal(designPath, probes, MAX_TRIALS_TOTAL));
  for (const w of designWarnings(loaded)) logger.warn(w);
  return prepareSession(design, { provider, baseUrl: o.baseUrl, model: o.model }, flagPrices, designPath);
}

/** The dry run of a one-shot design (an adaptive one's trials up to max_trials); resolves to the trials already stored. */
async function dryRun(session: Session, all: { sync: readonly TrialSpec[]; batch: readonly TrialSpec[] }, storePath: string, o: RunFlags,
  logger: Logger): Promise<number> {
  const rule = session.design.stop;
  const split = rule ? { sync: ruleSpecs(rule, all.sync), batch: ruleSpecs(rule, all.batch) } : all;
  const batchStored = split.batch.length > 0 ? printBatchDryRun(session, split.batch, storePath, o, logger) : 0;
  if (split.batch.length > 0 && split.sync.length === 0) return batchStored;
  const plan = storeGuard(storePath, (store) => {
    const run = store?.findRun(session.hash);
    return planRun(split.sync, (s) => run !== undefined && store!.isComplete(run.id, { model: s.model.id, game: s.game, framing: s.framing, rep: s.rep }),
      session.prices);
  }, storeIfPresent(storePath, { verify: o.verifyStore }));
  logger.print?.(`${commandsMsg.runDryRun(plan.calls, plan.total, plan.stored, plan.inputTokens, plan.outputTokens,
    commandsMsg.cost(plan.cost))}\n`);
  return batchStored + plan.stored;
}

/**
 * A batch wave as the waves read a wave's summary: what it stored counts as answered, trials neither stored nor in an open
 * batch as errors (the waves stop; run again to retry them); a batch left open (not waited for) stores nothing, which ends
 * the waves until the run is started again and collects it.
 */
function waveSummary(b: BatchSummary): RunSummary {
  return { total: b.total, alreadyDone: b.alreadyDone, ok: b.stored, invalid: 0, error: b.pending, dropped: 0, calls: b.stored, tokens: b.tokens,
    outcome: 'complete' };
}

/** The probes of a session asked as its decisions are: as batches for the models whose decisions go so (a repeated game: every model or none). */
function probeSplit(session: Session, o: RunFlags): ProbeSplit {
  const every = new Set(session.design.models.map((m) => m.id));
  return splitProbes(session, session.design.play ? (viaBatch(session, o) ? every : new Set()) : batchModels(session, o.batch === true));
}

/** A logger that closes a progress line and shows the closing summary: the CLI's own, else one over the given logger. */
function runLogger(l: Logger = silentLogger): RunLogger {
  const r = l as Logger & Partial<RunLogger>;
  if (r.endLine && r.summary) return r as RunLogger;
  return {
    info: (m) => l.info(m), warn: (m) => l.warn(m), endLine: () => {}, summary: (m) => l.info(m),
    ...(l.progress ? { progress: (label: string, done: number, total: number) => l.progress!(label, done, total) } : {}),
    ...(l.print ? { print: (t: string) => l.print!(t) } : {}),
  };
}

/**
 * A one-shot run's trials: synchronous calls, or an adaptive run's waves (synchronous, or one batch per model per wave, its
 * batch models' probes sent first), then the batched models of a fixed design with their probes beside them. Resolves to
 * the tokens used; an interrupted or aborted run throws (exit 130).
 */
async function runDirect(a: { session: Session; store: TrialStore; storePath: string; runId: number; resumed: boolean; o: RunFlags; logger: RunLogger;
  pool: ProviderPool; split: { sync: readonly TrialSpec[]; batch: readonly TrialSpec[] }; probes: ProbeSplit;
  stop: { stop: AbortSignal; abort: AbortSignal }; }): Promise<number> {
  const { session, store, storePath, runId, resumed, o, logger, pool, split, probes, stop } = a;
  const rule = session.design.stop;
  const runnerOptions = {
    store, runId, specs: split.sync, providers: pool, concurrency: o.concurrency, rpm: o.rpm, tpm: o.tpm,
    maxRetries: o.maxRetries, seed: o.seed, logger, stop: stop.stop, abort: stop.abort, timeoutMs: o.timeoutMs, maxWaitMs: o.maxWait * 1000,
    onStart: (done: number) => {
      if (split.sync.length > 0) logger.info(commandsMsg.runPlan(session.design.name, runId, split.sync.length, done, resumed));
    },
  };
  const batchWaves = rule !== undefined && split.batch.length > 0;
  if (batchWaves) await batchProbes({ session, probes, store, storePath, runId, o, logger, stop: stop.stop });
  const execute = batchWaves ? async (specs: readonly TrialSpec[]) =>
    waveSummary(await runBatchPart({ session, specs, store, storePath, runId, o, logger, stop: stop.stop, decisionsOnly: true })) : undefined;
  const w = rule ? await runWaves({ ...runnerOptions, specs: batchWaves ? split.batch : split.sync, rule, execute }) : undefined;
  const r = w ?? await runTrials(runnerOptions);
  const still = w ? w.statuses.filter((s) => s.stopped === null).length : 0;
  if (w && still > 0) logger.summary(commandsMsg.adaptiveOpen(still, w.statuses.length));
  else if (w) logger.summary(commandsMsg.adaptiveDone(w.statuses.filter((s) => s.stopped !== 'max_trials').length, w.statuses.length, w.used, w.fixed));
  if (r.outcome !== 'complete') {
    const complete = r.alreadyDone + r.ok + r.invalid;
    // 130 = interrupted by SIGINT (128 + 2), the shell convention.
    throw new UserError(r.outcome === 'aborted' ? commandsMsg.aborted(complete, r.total) : commandsMsg.interrupted(complete, r.total), 130);
  }
  const b = split.batch.length > 0 && !batchWaves
    ? await runBatchPart({ session, specs: [...probes.batch, ...split.batch], store, storePath, runId, o, logger, stop: stop.stop }) : undefined;
  if (b && probes.batch.length > 0 && b.open === 0) batchProbesStored(store, runId, new Set(probes.batch.map((p) => p.model.id)), logger);
  return r.tokens + (b?.tokens ?? 0);
}

/**
 * A trial or probe about to be asked synchronously that waits in a batch not yet collected (a run sent with --batch, resumed
 * without it: --batch is not part of the design) would be asked and billed twice: refused in one line before any call. A
 * repeated game's asked decisions are the next round of its open matches (read only when batches are open).
 */
function refuseAskedInOpenBatches(store: TrialStore, storePath: string, runId: number, sync: () => readonly TrialSpec[]): void {
  const open = BatchChunks.readOnly(store)?.inOpenChunks(runId);
  const waiting = open === undefined || open.size === 0 ? 0 : sync().filter((s) => open.has(batchKey(s))).length;
  if (waiting > 0) throw new UserError(commandsMsg.askedInOpenBatches(storePath, waiting));
}

/**
 * `samegame run DESIGN`: every trial of the design stored as it arrives (a store run again resumes),
 * or with `dryRun` the calls, tokens and cost printed (logger.print) and nothing called.
 */
export function run(opts: RunOptions): Promise<RunResult> {
  const { design, logger, stop, signal, ...flags } = opts;
  const o: RunFlags = {
    ...flags, concurrency: flags.concurrency ?? RUN_DEFAULTS.concurrency, maxRetries: flags.maxRetries ?? RUN_DEFAULTS.maxRetries,
      timeoutMs: flags.timeoutMs ?? RUN_DEFAULTS.timeoutMs,
    maxWait: flags.maxWait ?? RUN_DEFAULTS.maxWait, seed: flags.seed ?? RUN_DEFAULTS.seed, poll: flags.poll ?? RUN_DEFAULTS.poll, wait: flags.wait ?? true,
  };
  // The runner's two signals: stop (the caller's stop, or its abort) and abort (none unless given).
  const abort = signal ?? new AbortController().signal;
  return runSession(design, o, runLogger(logger), { stop: stop ? AbortSignal.any([stop, abort]) : abort, abort });
}

async function runSession(designPath: string, o: RunFlags, logger: RunLogger, stop: { stop: AbortSignal; abort: AbortSignal }): Promise<RunResult> {
  const session = sessionOf(designPath, o, logger);
  const storePath = o.store ?? defaultStore(session.design.name);
  checkOutFile('--store', storePath, { inPlace: true });
  // A file SQLite cannot open is the store unreadable, said by the one guard of store failures.
  storeGuard(storePath, () => assertStoreOrNew(storePath), 'open');
  // Plug-in modules are loaded and checked, unknown providers and missing keys fail, before the store is created.
  const plugins = await loadPlugins(session.design.models, designPath);
  const split = splitBatch(session, o.batch === true);
  const probes = probeSplit(session, o);
  // An adaptive run goes wholly one way: its waves synchronously, or each wave as one batch.
  if (session.design.stop && split.batch.length > 0 && split.sync.length > 0) throw new UserError(commandsMsg.adaptiveNoBatch(designPath));
  if (o.dryRun) {
    probesDryRun(session, probes, storePath, o, logger);
    if (session.design.play) {
      const r = await repeatedDryRun(session, storePath, o, logger);
      adaptiveDryRun(session, o.seed, logger, r.stored, r);
    } else adaptiveDryRun(session, o.seed, logger, await dryRun(session, split, storePath, o, logger));
    return { store: storePath };
  }
  // Stopped before the store is opened: nothing created.
  if (stop.stop.aborted) throw new UserError(commandsMsg.interrupted(0, session.specs.length), 130);
  const pool = new ProviderPool({ timeoutMs: o.timeoutMs }, plugins);
  pool.prepare(session.design.models);
  const store = TrialStore.open(storePath, { verify: o.verifyStore });
  try {
    // A store failure while the run uses it ends in one line naming the store.
    return await storeGuard(storePath, async () => {
      checkSealedDesign(store, storePath, session);
      const { run, resumed } = store.openRun(runRow(session));
      const synthetic = session.design.models.filter(isSimulated).map((m) => m.id);
      if (synthetic.length > 0) logger.info(commandsMsg.syntheticNote(synthetic));
      refuseAskedInOpenBatches(store, storePath, run.id, () => [...probes.sync, ...(!session.design.play ? split.sync
        : viaBatch(session, o) ? [] : frontierSpecs(session.design, { store, runId: run.id }).specs)]);
      const waiting = (session.design.play ? viaBatch(session, o) : split.batch.length > 0) ? undefined : openBatchesNotice(store, storePath, run.id);
      if (waiting) logger.warn(waiting);
      await askProbes({ session, probes, store, runId: run.id, o, logger, pool, stop: stop.stop, abort: stop.abort });
      if (session.design.play) {
        if (viaBatch(session, o)) await batchProbes({ session, probes, store, storePath, runId: run.id, o, logger, stop: stop.stop });
        await runRepeated({ session, store, storePath, runId: run.id, resumed, o, logger, pool, stop: stop.stop, abort: stop.abort });
        return { store: storePath, runId: run.id };
      }
      const tokens = await runDirect({ session, store, storePath, runId: run.id, resumed, o, logger, pool, split, probes, stop });
      const c = store.statusCounts(run.id);
      // Interrupted while waiting on batches: what was submitted stays open in the store; a rerun polls it.
      if (stop.stop.aborted) throw new UserError(commandsMsg.interrupted(c.ok + c.invalid, session.specs.length), 130);
      logger.summary(commandsMsg.runDone(c.ok + c.invalid + c.error, c.ok, c.invalid, c.error, tokens, storePath));
      if (o.wait !== false) logger.summary(commandsMsg.nextCommand(storePath));
      return { store: storePath, runId: run.id };
    });
  } finally {
    logger.endLine();
    store.close();
  }
}
