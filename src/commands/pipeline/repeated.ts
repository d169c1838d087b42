/**
 * `samegame analyze` on repeated play, whatever the source of the decisions (a repeated run's
 * store, a published game log): the tables of repeated-tables.ts, the figures, and the report with
 * its match browser, as values the pipeline writes as one atomic set (write.ts) — nothing when an
 * input error stops it.
 */
import { decisionsOrigin } from '../../core/decisions.js';
import { labelSynthetic } from '../../core/provenance.js';
import type { RepeatedInput } from './repeated-input.js';
import { repeatedTables, type AnalyzeRepeatedOptions, type RepeatedResult } from './repeated-tables.js';
import { repeatedPresentationFiles } from './repeated-report.js';

export { repeatedTables, roundsOf, type AnalyzeRepeatedOptions, type RepeatedResult, type RepeatedTwoFraming } from './repeated-tables.js';

/** Tables, figures and reports/report.html (with the match browser): the result's files are all of them. */
export async function analyzeRepeated(input: RepeatedInput, opts: AnalyzeRepeatedOptions = {}): Promise<RepeatedResult> {
  const res = repeatedTables(input, opts);
  return { ...res, files: [...res.files, ...labelSynthetic(await repeatedPresentationFiles(res, opts.logger, opts.figureStyle), decisionsOrigin(res.input))] };
}
