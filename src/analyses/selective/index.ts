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
