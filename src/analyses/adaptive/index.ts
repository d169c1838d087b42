/** The analysis of an adaptive run: anytime-valid intervals at the stopping looks, stopping times and trials saved. */
export * from './stopping.js';
export * from './report.js';
export * from './plan.js';
export * from './matches.js';

import { stoppingCsv, stoppingRows, stoppingTotals } from './stopping.js';
import { adaptiveMetrics, adaptiveSection } from './report.js';

/** The analysis of an adaptive run as one object. */
export const adaptive = { rows: stoppingRows, csv: stoppingCsv, totals: stoppingTotals, section: adaptiveSection, metrics: adaptiveMetrics } as const;
