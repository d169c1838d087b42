import { TrialStore } from '../live/store/store.js';
import { pickRun, readStore, storeTable, type StoreTable } from '../sources/store.js';
import { UserError } from '../core/errors.js';
import { analyzeMsg } from '../core/messages/analyze.js';
import { reproductionMsg } from '../core/messages/reproduction.js';
import { silentLogger } from '../core/logger.js';
import { designFacts, type DesignFacts } from '../analyses/compare/design-facts.js';
import { DEFAULTS } from './reproduce.js';
import { isSelectiveSource } from '../analyses/selective/facts.js';
import { DEFAULT_THRESHOLDS } from '../analyses/selective/estimand.js';
import { analyzeSelective } from './analyze-selective.js';
import type { SelectiveAnalysis } from '../analyses/selective/index.js';
import { analyzeDirectRun, type AnalyzeResult } from './analyze-two-framing.js';
import { analyzeCommand, defaultAnalyzeOut, type AnalyzeOptions } from './analyze-settings.js';

export type { AnalyzeResult } from './analyze-two-framing.js';
export { analyzeCommand, defaultAnalyzeOut, directRunSettings, type AnalyzeOptions } from './analyze-settings.js';

/** The run's cell table and the facts of its design, read from the store (closed again). */
export function readStoreSource(opts: Pick<AnalyzeOptions, 'store' | 'runId' | 'verifyStore'>): { source: StoreTable; facts: DesignFacts } {
  const store = readStore(opts.store, () => TrialStore.openExisting(opts.store, { verify: opts.verifyStore }));
  try {
    return readStore(opts.store, () => {
      const run = pickRun(store, opts.store, opts.runId);
      const facts = designFacts(run.designJson);
      return { source: storeTable(store, run, facts), facts };
    });
  } finally {
    store.close();
  }
}

/**
 * `samegame analyze STORE`: a two-framing run → the same outputs as `reproduce` (analyzeDirectRun);
 * a context-enrichment run → the selective-robustness analysis. The result's `kind` tells which;
 * analyzeTwoFramingRun and analyzeSelectiveRun return one kind each and refuse the other.
 */
export function analyze(opts: AnalyzeOptions): AnalyzeResult | SelectiveAnalysis {
  const { source, facts } = readStoreSource(opts);
  return isSelectiveSource(source) ? selectiveOf(source, opts) : analyzeDirectRun(source, facts, opts, opts.logger ?? silentLogger);
}

/** `analyze` for a two-framing run; a context-enrichment store is refused with one line. */
export function analyzeTwoFramingRun(opts: AnalyzeOptions): AnalyzeResult {
  const { source, facts } = readStoreSource(opts);
  if (isSelectiveSource(source)) throw new UserError(analyzeMsg.wrongDesignKind(opts.store, 'context-enrichment', 'two-framing'));
  return analyzeDirectRun(source, facts, opts, opts.logger ?? silentLogger);
}

/** `analyze` for a context-enrichment run; a two-framing store is refused with one line. */
export function analyzeSelectiveRun(opts: AnalyzeOptions): SelectiveAnalysis {
  const { source } = readStoreSource(opts);
  if (!isSelectiveSource(source)) throw new UserError(analyzeMsg.wrongDesignKind(opts.store, 'two-framing', 'context-enrichment'));
  return selectiveOf(source, opts);
}

function selectiveOf(source: StoreTable, opts: AnalyzeOptions): SelectiveAnalysis {
  if (opts.expect !== undefined) throw new UserError(reproductionMsg.expectNeedsTwoFraming(opts.store));
  const thresholds = opts.thresholds ?? DEFAULT_THRESHOLDS;
  const settings = { seed: opts.seed ?? DEFAULTS.seed, reps: opts.reps ?? DEFAULTS.reps };
  return analyzeSelective(source, {
    ...opts, thresholds, out: opts.out ?? defaultAnalyzeOut(opts.store),
    command: analyzeCommand(opts.store, source.run.id, settings, { thresholds }),
  });
}
