import type { SelectiveAnalysis } from '../analyses/selective/index.js';
import type { AnalyzeOptions } from './analyze.js';
import { RUN_KINDS, readStoredRun, type AnyAnalysis, type RunKindAnalysis } from './analyze-kinds.js';
import type { RepeatedResult } from './analyze-repeated.js';
import { withStoreErrors } from '../live/store/integrity.js';
import { silentLogger, type Logger } from '../core/logger.js';

export type { AnyAnalysis } from './analyze-kinds.js';
export const isSelectiveAnalysis = (a: AnyAnalysis): a is SelectiveAnalysis => a.kind === 'selective';
export const isRepeatedAnalysis = (a: AnyAnalysis): a is RepeatedResult => a.kind === 'repeated';

/**
 * `samegame analyze` as the CLI runs it: the analysis of the run's kind (RUN_KINDS) with
 * its figures (spec, SVG, PNG) and report — every file written as one atomic set. Rendering is async
 * (Vega's dataflow), hence this wrapper, as reproduceWithFigures is for reproduce.
 */
export function analyzeWithFigures(opts: AnalyzeOptions): Promise<AnyAnalysis> {
  return analyzeRun(opts, false);
}

/** `samegame analyze STORE` as the CLI runs it: analyzeWithFigures, then what the run's kind prints (exit 3 when a check fails). */
export async function analyzeStore(opts: AnalyzeOptions & { readonly logger: Logger }): Promise<void> {
  await analyzeRun(opts, true);
}

function analyzeRun(opts: AnalyzeOptions, print: boolean): Promise<AnyAnalysis> {
  // A store SQLite cannot read ends in one line naming it.
  return withStoreErrors<AnyAnalysis>(opts.store, async () => {
    const run = readStoredRun(opts);
    const kind = RUN_KINDS[run.kind] as RunKindAnalysis<AnyAnalysis>;
    const res = await kind.withFigures(run, opts);
    if (print) kind.print(res, opts.logger ?? silentLogger, opts);
    return res;
  });
}
