/** Selective robustness of context-enrichment runs: surface sensitivity, world responsiveness, paraphrase metrics, imputation bounds, the plane figure. */
export * from './analysis.js';
export * from './estimand.js';
export * from './paraphrase.js';
export * from './paraphrase-estimand.js';
export * from './facts.js';
export * from './figure.js';
export * from './imputation.js';
export * from './published.js';
export * from './outputs.js';
export * from './report.js';
export * from './names.js';

import { selectiveAnalysis } from './analysis.js';
import { selectiveEstimand } from './estimand.js';
import { paraphraseEstimand } from './paraphrase-estimand.js';
import { selectivePlaneFigure } from './figure.js';
import { selectiveCsv, selectiveJson, selectiveMarkdown } from './outputs.js';
import { selectiveReportFile } from './report.js';

/** Selective robustness as one object: estimands, the analysis, tables, figure and report. */
export const selective = {
  estimands: { selective: selectiveEstimand, paraphrase: paraphraseEstimand }, run: selectiveAnalysis,
  tables: { csv: selectiveCsv, json: selectiveJson, markdown: selectiveMarkdown }, figures: selectivePlaneFigure, report: selectiveReportFile,
} as const;
