/** The analysis of an adaptive run: anytime-valid intervals at the stopping looks, stopping times and trials saved. */
export * from './stopping.js';

import { stoppingCsv, stoppingRows, stoppingTotals } from './stopping.js';

/** The analysis of an adaptive run as one object. */
export const adaptive = { rows: stoppingRows, csv: stoppingCsv, totals: stoppingTotals } as const;
