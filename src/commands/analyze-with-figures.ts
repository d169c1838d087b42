import type { SelectiveAnalysis } from '../analyses/selective/index.js';
import type { AnalyzeOptions } from './analyze.js';
import { RUN_KINDS, readStoredRun, type AnyAnalysis, type RunKindAnalysis } from './analyze-kinds.js';
import type { RepeatedResult } from './analyze-repeated.js';
import { withStoreErrors } from '../live/store/integrity.js';

export type { AnyAnalysis } from './analyze-kinds.js';
export const isSelectiveAnalysis = (a: AnyAnalysis): a is SelectiveAnalysis => a.kind === 'selective';
export const isRepeatedAnalysis = (a: AnyAnalysis): a is RepeatedResult => a.kind === 'repeated';

/**
 * `samegame analyze` as the CLI runs it: the analysis of the run's kind (RUN_KINDS) with
 * its figures (spec, SVG, PNG) and report — every file written as one atomic set. Rendering is async
 * (Vega's dataflow), hence this wrapper, as reproduceWithFigures is for reproduce.
 */
export function analyzeWithFigures(opts: AnalyzeOptions): Promise<AnyAnalysis> {
  // A store SQLite cannot read ends in one line naming it.
  return withStoreErrors<AnyAnalysis>(opts.store, () => {
    const run = readStoredRun(opts);
    return (RUN_KINDS[run.kind] as RunKindAnalysis<AnyAnalysis>).withFigures(run, opts);
  });
}
