/**
 * `samegame analyze` on repeated play, whatever the source of the decisions (a repeated run's
 * store, a published game log): the tables of analyze-repeated-tables.ts, the figures, and the
 * report with its match browser, every file written as one atomic set — nothing when an input
 * error stops it.
 */
import { writeFilesAtomic } from '../core/atomic.js';
import { decisionsOrigin } from '../core/decisions.js';
import { labelSynthetic } from '../core/provenance.js';
import type { RepeatedInput } from './repeated-input.js';
import { repeatedTables, type AnalyzeRepeatedOptions, type RepeatedResult } from './analyze-repeated-tables.js';
import { repeatedPresentationFiles } from './analyze-repeated-report.js';

export { repeatedTables, type AnalyzeRepeatedOptions, type RepeatedResult, type RepeatedTwoFraming } from './analyze-repeated-tables.js';

/** Tables, figures and reports/report.html (with the match browser), written as one atomic set unless dryRun. */
export async function analyzeRepeated(input: RepeatedInput, opts: AnalyzeRepeatedOptions = {}): Promise<RepeatedResult> {
  const res = repeatedTables(input, opts);
  const files = [...res.files, ...labelSynthetic(await repeatedPresentationFiles(res, opts.logger, opts.figureStyle), decisionsOrigin(res.input))];
  if (!opts.dryRun) writeFilesAtomic(files);
  return { ...res, files };
}
