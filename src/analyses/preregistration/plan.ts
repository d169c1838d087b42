/**
 * A preregistration plan (YAML): the design it seals (a file, hashed), the analysis settings (the
 * flags `analyze` takes), α, the family-wise correction and the hypotheses, each a predicate over a
 * named estimand with the test that decides it. The schema is representable as JSON Schema
 * (data/plans/plan.schema.json, scripts/plan-schema.mjs); the plan is sealed as its canonical JSON.
 */
import { z } from 'zod';
import { formatPath, lineOf, parseYamlMapping, zodProblems, type Problem } from '../../core/doc-problems.js';
import { UserError } from '../../core/errors.js';
import { nameSchema } from '../../core/names-rule.js';
import { preregMsg } from './messages.js';

export const PLAN_SCHEMA_FILE = 'data/plans/plan.schema.json';

/** The estimands a predicate may name, and the test or interval that decides each (docs/methods.md §25). */
export const PLAN_ESTIMANDS = ['shift', 'R', 'framing-test'] as const;
export type PlanEstimand = (typeof PLAN_ESTIMANDS)[number];
export const CORRECTIONS = ['holm', 'bonferroni', 'none'] as const;
export type Correction = (typeof CORRECTIONS)[number];

const hypothesisSchema = z.strictObject({
  id: nameSchema().describe('the hypothesis\'s name in verdicts.csv'),
  statement: z.string().optional().describe('the hypothesis in words'),
  estimand: z.enum(PLAN_ESTIMANDS).describe(('shift: p_alt − p_base (a model–game, a model\'s mean over games, or pooled), decided by a one-sided z-test ' +
    'against value; R: R2 = 1 − JSD/ln 2, the same way with a delta-method SE; framing-test: "framing changes behaviour", the G-test of §8.5 ' +
    '(a model\'s pairs, pooled, or every model)')),
  model: nameSchema().describe('a model id; pooled (every model–game pair); for framing-test also every (the predicate holds for each model)'),
  game: nameSchema().optional().describe('shift, R: one game (default: the mean over the model\'s games)'),
  compare: z.enum(['>', '<']).optional().describe('shift, R: the predicate\'s direction'),
  value: z.number().min(-1).max(1).optional().describe('shift, R: the threshold the estimand is compared with'),
});

export const planSchema = z.strictObject({
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  design: z.string().min(1).describe('the design file (YAML), relative to the plan: sealed by its hash'),
  analysis: z.strictObject({
    base: nameSchema().describe('the base framing (as --base)'),
    alt: nameSchema().describe('the alternative framing (as --alt)'),
    seed: z.number().int().min(0).optional().describe('bootstrap seed (as --seed)'),
    reps: z.number().int().min(1).optional().describe('bootstrap replicates (as --reps)'),
    interval: z.enum(['percentile', 'bca']).optional().describe('bootstrap interval (as --interval)'),
    attenuation: z.number().min(0).max(1).optional().describe('conservative transform (as --attenuation; direct runs: 1)'),
  }).describe('the analysis settings: the flags analyze takes; given flags that differ make the analysis exploratory'),
  alpha: z.number().gt(0).lt(0.5).default(0.05).describe('the family-wise error rate (default 0.05)'),
  correction: z.enum(CORRECTIONS).default('holm').describe('the family-wise correction over the hypotheses (default holm)'),
  max_lost_rate: z.number().min(0).max(1).default(0.05)
    .describe('trials lost (not stored, or errors) or invalid beyond this fraction of the planned trials are a deviation (default 0.05)'),
  hypotheses: z.array(hypothesisSchema).min(1).describe('the predicates, adjudicated by analyze of the sealed store'),
});

export type Plan = z.output<typeof planSchema>;
export type Hypothesis = Plan['hypotheses'][number];

/** The JSON Schema of a plan (data/plans/plan.schema.json). */
export function planJsonSchema(): Record<string, unknown> {
  const s = z.toJSONSchema(planSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...s, title: 'samegame preregistration plan',
    description: 'A plan sealed into a trial store by samegame preregister: the design, the analysis settings and the hypotheses (docs/methods.md §25).' };
}

/** Problems the schema cannot express: each predicate's fields, unique ids, distinct framings. */
function planProblems(p: Plan): Problem[] {
  const out: Problem[] = [];
  const seen = new Set<string>();
  p.hypotheses.forEach((h, i) => {
    if (seen.has(h.id)) out.push({ path: ['hypotheses', i, 'id'], message: preregMsg.duplicateHypothesis(h.id) });
    seen.add(h.id);
    if (h.estimand !== 'framing-test' && (h.compare === undefined || h.value === undefined)) {
      out.push({ path: ['hypotheses', i, h.compare === undefined ? 'compare' : 'value'], message: preregMsg.needsComparison(h.id) });
    }
    if (h.estimand === 'framing-test' && (h.compare !== undefined || h.value !== undefined || h.game !== undefined)) {
      out.push({ path: ['hypotheses', i, 'estimand'], message: preregMsg.testTakesNoValue(h.id) });
    }
  });
  if (p.analysis.base === p.analysis.alt) out.push({ path: ['analysis', 'alt'], message: preregMsg.sameFraming(p.analysis.base) });
  return out;
}

/** Validate a plan from its YAML text; the first problem ends it with one line naming file, line and field. */
export function parsePlan(text: string, file: string): Plan {
  const { doc, lc, data } = parseYamlMapping(text, (line, detail) => preregMsg.planSyntax(file, line, detail), () => preregMsg.planNotMapping(file));
  const r = planSchema.safeParse(data);
  const found = r.success ? planProblems(r.data) : zodProblems(r.error.issues, PLAN_SCHEMA_FILE);
  if (found.length > 0) {
    const p = found[0];
    throw new UserError(preregMsg.planField(file, lineOf(doc, lc, p.path), formatPath(p.path), p.message));
  }
  return r.data!;
}
