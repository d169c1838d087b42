/** Direct runs beside the published tables: per-model comparison, design facts, the compare figure. */
export * from './compare.js';
export * from './design-facts.js';
export * from './tables.js';
export * from './figure.js';

import { compareCells } from './compare.js';
import { compareCsv, compareHeadlineCsv, invalidCsv, lambdaCsv, lambdaRows } from './tables.js';
import { compareFigure } from './figure.js';
import { compareSections, lambdaSection } from './report.js';

/** Direct runs beside the published tables, as one object: comparison, tables, figure and report sections. */
export const compare = {
  run: compareCells,
  tables: { compare: compareCsv, headline: compareHeadlineCsv, invalid: invalidCsv, lambda: lambdaCsv, lambdaRows },
  figures: compareFigure, report: { compare: compareSections, lambda: lambdaSection },
} as const;
