/** The two-framing analysis (R2, shift, the conservative transform, family robustness, λ̂). */
export * from './analysis.js';
export * from './estimand.js';
export * from './family.js';
export * from './lambda.js';
export * from './checks.js';
export * from './tables.js';
export * from './metrics.js';
export * from './terminal.js';
export * from './files.js';
export * from './report.js';
export * from './figures.js';
