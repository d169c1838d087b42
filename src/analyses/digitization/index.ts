/** A digitized figure's provenance outputs: reports/digitization.csv, metrics.json's digitization field, the report section. */
import { digitizationCsv, digitizationFiles, digitizationMetrics, digitizationSection, pixelLabel, DIGITIZATION_COLUMNS } from './digitization.js';

export { DIGITIZATION_COLUMNS, pixelLabel };

export const digitization = {
  csv: digitizationCsv,
  files: digitizationFiles,
  metrics: digitizationMetrics,
  section: digitizationSection,
  pixelLabel,
};
