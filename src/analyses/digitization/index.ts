/** A digitized figure's provenance outputs: reports/digitization.csv, metrics.json's digitization field, the report section. */
import { digitizationCsv, digitizationFiles, digitizationMetrics, digitizationSection, pixelLabel, DIGITIZATION_COLUMNS } from './digitization.js';

export const digitization = {
  columns: DIGITIZATION_COLUMNS,
  csv: digitizationCsv,
  files: digitizationFiles,
  metrics: digitizationMetrics,
  section: digitizationSection,
  pixelLabel,
} as const;
