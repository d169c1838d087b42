/**
 * Random-effects meta-analysis of framing effects across games, models and studies: effect sizes
 * per cell, pooling (per model, per study, overall; the three-level model), meta-regression,
 * leave-one-study-out, their tables, figures and report section (docs/methods.md, "Meta-analysis").
 */
import { studyEffects } from './effects.js';
import { metaAnalyze } from './pool.js';
import { metaTableFiles } from './tables.js';
import { metaFigures } from './figures.js';
import { metaSection, metaSections } from './report.js';
import { manifestJsonSchema, parseManifest, STUDY_SOURCE_KINDS } from './manifest.js';
import { moderatorProblem, ROW_MODERATORS } from './design.js';
import { randomTable3, randomTable3Csv, randomTable3Section, randomTable3Text } from './table3-random.js';
import { pooledText } from './terminal.js';

export const meta = {
  studyEffects,
  analyze: metaAnalyze,
  files: metaTableFiles,
  figures: metaFigures,
  section: metaSection,
  sections: metaSections,
  text: pooledText,
  parseManifest,
  manifestJsonSchema,
  sourceKinds: STUDY_SOURCE_KINDS,
  rowModerators: ROW_MODERATORS,
  moderatorProblem,
  randomTable3,
  randomTable3Csv,
  randomTable3Text,
  randomTable3Section,
} as const;

export type { EffectRow, StudyContrast } from './effects.js';
export type { MetaAnalysis, MetaAnalysisSettings, PooledRow, MultilevelRow, LeaveOneOutRow } from './pool.js';
export type { Manifest, StudySpec, StudySourceKind } from './manifest.js';
export type { MetaProvenance } from './tables.js';
export type { RandomTable3Row } from './table3-random.js';
