/** The comprehension outputs of a run with probes: table, verdicts, figure, Table 3 marks and report section (docs/methods.md §18c). */
export * from './comprehension.js';
export * from './marks.js';

import { comprehensionCsv, comprehensionFigure, comprehensionOf, table3Marks, verdictsCsv } from './comprehension.js';
import { comprehensionSection, comprehensionWarnings, markedTable3Files, table3Note, withTable3Note } from './marks.js';

/** The comprehension analysis as one object. */
export const comprehension = {
  of: comprehensionOf, csv: comprehensionCsv, verdictsCsv, figure: comprehensionFigure, marks: table3Marks, markFiles: markedTable3Files,
  note: table3Note, section: comprehensionSection, withNote: withTable3Note, warnings: comprehensionWarnings,
} as const;
