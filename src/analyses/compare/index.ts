/** Direct runs beside the published tables: per-model comparison, design facts, the compare figure. */
export * from './compare.js';
export * from './design-facts.js';
export * from './tables.js';
export * from './figure.js';
