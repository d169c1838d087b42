import { writeFilesAtomic } from '../core/atomic.js';
import { figureFiles } from '../render/figure-files.js';
import { selectiveReportFile, type SelectiveAnalysis } from '../analyses/selective/index.js';
import { analyze, type AnalyzeOptions, type AnalyzeResult } from './analyze.js';
import { analyzePresentationFiles } from './analyze-outputs.js';

export type AnyAnalysis = AnalyzeResult | SelectiveAnalysis;
export const isSelectiveAnalysis = (a: AnyAnalysis): a is SelectiveAnalysis => (a as SelectiveAnalysis).kind === 'selective';

/**
 * `samegame analyze` as the CLI runs it: `analyze` plus its figures (spec, SVG, PNG) and, for a
 * two-framing run, reports/report.html; for a context-enrichment run, the plane figure — every file written as one atomic set. Rendering is async (Vega's
 * dataflow), hence this wrapper, as reproduceWithFigures is for reproduce.
 */
export async function analyzeWithFigures(opts: AnalyzeOptions): Promise<AnyAnalysis> {
  const res = analyze({ ...opts, dryRun: true });
  if (!isSelectiveAnalysis(res)) {
    const files = [...res.files, ...await analyzePresentationFiles(res, opts.logger)];
    if (!opts.dryRun) writeFilesAtomic(files);
    return { ...res, files };
  }
  const files = [...res.files, ...await figureFiles(res.figures, res.outDir, opts.logger), selectiveReportFile(res)];
  if (!opts.dryRun) writeFilesAtomic(files);
  return { ...res, files };
}
