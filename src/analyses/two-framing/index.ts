/** The two-framing analysis (R2, shift, the conservative transform, family robustness, λ̂). */
export * from './analysis.js';
export * from './estimand.js';
export * from './family.js';
export * from './lambda.js';
export * from './checks.js';
export * from './cell-grids.js';
export * from './tables.js';
export * from './metrics.js';
export * from './terminal.js';
export * from './files.js';
export * from './report.js';
export * from './figures.js';
export * from './framing-tests.js';
export * from './named.js';
export * from './latex.js';

import { analyzeTwoFraming, TWO_FRAMING_DEFAULTS } from './analysis.js';
import { twoFramingEstimand } from './estimand.js';
import { familyEstimand } from './family.js';
import { lambdaEstimand } from './lambda.js';
import { TWO_FRAMING_CHECKS, verifyTwoFraming } from './checks.js';
import { familyRows, table2Rows, table3Rows } from './tables.js';
import { csvTables, twoFramingTableFiles, verificationFiles } from './files.js';
import { omittedFigures, twoFramingFigures } from './figures.js';
import { figuresSection, provenanceSection, settingsSection, summarySection, table2Section, table3Section, verificationSection } from './report.js';

/**
 * The two-framing analysis as one object: its estimands (each declaring its statistics' bounds),
 * its checks, tables, figures and report sections. The commands compose these; a new statistic is
 * added in this folder and nowhere else.
 */
export const twoFraming = {
  defaults: TWO_FRAMING_DEFAULTS,
  analyze: analyzeTwoFraming,
  estimands: { twoFraming: twoFramingEstimand, family: familyEstimand, lambda: lambdaEstimand },
  checks: TWO_FRAMING_CHECKS,
  verify: verifyTwoFraming,
  tables: { table2: table2Rows, table3: table3Rows, family: familyRows, files: twoFramingTableFiles, verificationFiles, csvNames: csvTables },
  figures: twoFramingFigures,
  omittedFigures,
  report: {
    summary: summarySection, table2: table2Section, table3: table3Section, figures: figuresSection,
    verification: verificationSection, provenance: provenanceSection, settings: settingsSection,
  },
} as const;
