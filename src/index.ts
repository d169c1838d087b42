/**
 * samegame as a library: the same functions the CLI uses.
 */
export * from './model/cell-table.js';
export * from './stats/jsd.js';
export * from './stats/mean.js';
export * from './stats/quantile.js';
export * from './stats/rng.js';
export * from './stats/binomial.js';
export * from './stats/bootstrap.js';
export * from './estimands/names.js';
export * from './estimands/two-framing.js';
export * from './estimands/family.js';
export * from './estimands/combine.js';
export * from './io/decimal.js';
export * from './io/rates-csv.js';
export * from './io/atomic.js';
export * from './pipeline/two-framing.js';
export * from './pipeline/reproduce.js';
export * from './verify/report.js';
export * from './verify/appendix-c.js';
export * from './emit/csv.js';
export * from './emit/format.js';
export * from './emit/tables.js';
export * from './emit/metrics.js';
export * from './emit/verification.js';
export * from './emit/terminal.js';
export * from './log/errors.js';
export * from './log/logger.js';
export { msg } from './log/messages.js';
export { toolInfo, packageRoot, SHIPPED_RATES } from './paths.js';
