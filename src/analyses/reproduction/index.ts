/** Reproduction verdicts: every published number beside the computed one (`--expect FILE`). */
export { compareWithPublished, type Reproduction, type ReproductionRow } from './compare.js';
export { exactDecimal, halfUnit, judge, endpointMcSe, VERDICTS, type Verdict, type Judgement, type ExactDecimal } from './verdict.js';
export {
  REPRODUCTION_COLUMNS, reproductionCsv, reproductionFile, reproductionCheck, reproductionSection, reproductionSentence, rowLabel,
} from './outputs.js';
export { reproductionFigure, reproductionPoints } from './figure.js';
