/** Reproduction verdicts: every published number beside the computed one (`--expect FILE`). */
export {
  ASSUMED_PUBLISHED_REPS, compareWithPublished, DEFAULT_VERDICT_ALPHA, type Reproduction, type ReproductionRow, type VerdictRule, type VerdictSettings,
} from './compare.js';
export { exactDecimal, halfUnit, judge, VERDICTS, type Verdict, type Judgement, type ExactDecimal } from './verdict.js';
export {
  REPRODUCTION_COLUMNS, reproductionCsv, reproductionFile, reproductionCheck, reproductionSection, reproductionSentence, reproductionRuleText,
    reproductionMetrics, rowLabel,
} from './outputs.js';
export { reproductionFigure, reproductionFigures, reproductionPoints } from './figure.js';
export { reproductionLatex, reproductionLatexFile } from './latex.js';

import { compareWithPublished } from './compare.js';
import { reproductionCheck, reproductionCsv, reproductionSection } from './outputs.js';
import { reproductionFigure } from './figure.js';

/** Reproduction verdicts as one object: the comparison, its check, table, figure and report section. */
export const reproduction = {
  compare: compareWithPublished, checks: { published_values_reproduced: reproductionCheck },
  tables: { csv: reproductionCsv }, figures: reproductionFigure, report: reproductionSection,
} as const;
