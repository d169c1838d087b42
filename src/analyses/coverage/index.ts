/** Coverage of the bootstrap intervals on a user's own design (simulated from known rates). */
export * from './coverage.js';
export * from './figure.js';
export * from './table.js';
export * from './adaptive.js';

import { coverageStudy, COVERAGE_DEFAULTS } from './coverage.js';
import { coverageFigure } from './figure.js';
import { coverageCsv, coverageText } from './table.js';

/** Interval coverage as one object: the simulation study, its table and figure. */
export const coverage = {
  defaults: COVERAGE_DEFAULTS, run: coverageStudy, tables: { csv: coverageCsv, text: coverageText }, figures: coverageFigure,
} as const;
