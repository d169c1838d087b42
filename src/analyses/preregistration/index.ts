/**
 * Preregistration: a plan (design, analysis settings, hypotheses as predicates over named
 * estimands, α, the family-wise correction), sealed into a store before the first trial, and the
 * mechanical verdicts of `analyze` on a sealed store (docs/methods.md §25).
 */
import { parsePlan, planJsonSchema, PLAN_ESTIMANDS, CORRECTIONS } from './plan.js';
import { adjudicate, adjustP } from './verdicts.js';
import { verdictsCsv, verdictsSection } from './report.js';

export const preregistration = {
  parsePlan,
  planJsonSchema,
  estimands: PLAN_ESTIMANDS,
  corrections: CORRECTIONS,
  adjudicate,
  adjustP,
  verdictsCsv,
  verdictsSection,
} as const;

export type { Plan, Hypothesis, PlanEstimand, Correction } from './plan.js';
export type { VerdictCell, VerdictRow, Verdict } from './verdicts.js';
export type { VerdictReport } from './report.js';
