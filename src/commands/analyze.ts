import { silentLogger } from '../core/logger.js';
import type { SelectiveAnalysis } from '../analyses/selective/index.js';
import type { AnalyzeResult } from './analyze-two-framing.js';
import { analyzeDirectRun } from './analyze-two-framing.js';
import type { AnalyzeOptions } from './analyze-settings.js';
import { RUN_KINDS, readStoredRun, type AnyAnalysis } from './analyze-kinds.js';
import { UserError } from '../core/errors.js';
import { analyzeMsg } from '../core/messages/analyze.js';

export type { AnalyzeResult } from './analyze-two-framing.js';
export { DEFAULT_THRESHOLDS } from '../analyses/selective/estimand.js';
export { analyzeCommand, defaultAnalyzeOut, directRunSettings, type AnalyzeOptions } from './analyze-settings.js';
export { RUN_KINDS, type AnyAnalysis, type RunKind, type RunKindAnalysis } from './analyze-kinds.js';

/**
 * `samegame analyze STORE`: the analysis of the stored run's kind (RUN_KINDS) — a
 * two-framing run → the same outputs as `reproduce` (analyzeDirectRun); a context-enrichment run →
 * the selective-robustness analysis; a repeated run → cells, rounds, reactions and the end game
 * clustered by match. The result's `kind` tells which; analyzeTwoFramingRun and
 * analyzeSelectiveRun return one kind each and refuse the others.
 */
export function analyze(opts: AnalyzeOptions): AnyAnalysis {
  const run = readStoredRun(opts);
  return RUN_KINDS[run.kind].analyze(run, opts);
}

/** `analyze` for a two-framing run; another kind is refused with one line. */
export function analyzeTwoFramingRun(opts: AnalyzeOptions): AnalyzeResult {
  const run = readStoredRun(opts);
  if (run.kind !== 'one-shot') throw new UserError(analyzeMsg.wrongDesignKind(opts.store, RUN_KINDS[run.kind].design, RUN_KINDS['one-shot'].design));
  return analyzeDirectRun(run.source, run.facts, opts, opts.logger ?? silentLogger);
}

/** `analyze` for a context-enrichment run; another kind is refused with one line. */
export function analyzeSelectiveRun(opts: AnalyzeOptions): SelectiveAnalysis {
  const run = readStoredRun(opts);
  return RUN_KINDS.enrichment.analyze(run, opts);
}
