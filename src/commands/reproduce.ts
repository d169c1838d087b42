/**
 * `samegame reproduce`'s settings and tables: the rates pipeline (pipeline/rates-tables.ts), which
 * `report` reads too; reproduce-outputs.ts adds the figures and the report.
 */
export {
  DEFAULTS, framingTestText, hasFramingTests, ratesCommand, reproduceTables, table3Text, type ReproduceOptions, type ReproduceResult,
} from './pipeline/rates-tables.js';
