/**
 * The comprehension outputs of a run with probes (docs/methods.md §18c): reports/comprehension.csv
 * (per model × game × framing × outcome), reports/comprehension-verdicts.csv (per model ×
 * framing), the figure, and the mark a model's R and shift carry in Table 3 when either framing
 * of its contrast is not shown payoff-equivalent for it.
 */
import { toCsv } from '../../render/csv.js';
import { comprehensionChart } from '../../render/charts/comprehension.js';
import type { Figure } from '../../render/figure.js';
import { comprehensionRows, comprehensionVerdicts, NOT_SHOWN, type ComprehensionRow, type ComprehensionVerdict,
  type ScoredProbe } from '../../live/probes/comprehension.js';

export { DEFAULT_COMPREHENSION_THRESHOLD, NOT_SHOWN, type ScoredProbe } from '../../live/probes/comprehension.js';

/** Design order of the levels (the rows follow it; outcomes CC, CD, DC, DD). */
export interface ComprehensionOrder {
  readonly models: readonly string[];
  readonly games: readonly string[];
  readonly framings: readonly string[];
}

export interface Comprehension {
  readonly threshold: number;
  /** The answered probes the table and verdicts count. */
  readonly probes: readonly ScoredProbe[];
  readonly rows: readonly ComprehensionRow[];
  readonly verdicts: readonly ComprehensionVerdict[];
  readonly order: ComprehensionOrder;
}

const OUTCOMES = ['CC', 'CD', 'DC', 'DD'];

/** A level's rank in design order; levels the design does not list come after, by name. */
function ranker(levels: readonly string[]): (v: string) => number {
  return (v) => { const i = levels.indexOf(v); return i < 0 ? levels.length : i; };
}

/** The comprehension table and verdicts of a run's answered probes, in design order. */
export function comprehensionOf(probes: readonly ScoredProbe[], order: ComprehensionOrder, threshold: number): Comprehension {
  const [m, g, f, o] = [ranker(order.models), ranker(order.games), ranker(order.framings), ranker(OUTCOMES)];
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const rows = comprehensionRows(probes).sort((a, b) => m(a.model) - m(b.model) || cmp(a.model, b.model) || g(a.game) - g(b.game)
    || cmp(a.game, b.game) || f(a.framing) - f(b.framing) || cmp(a.framing, b.framing) || o(a.outcome) - o(b.outcome));
  const verdicts = comprehensionVerdicts(probes, threshold).sort((a, b) => m(a.model) - m(b.model) || cmp(a.model, b.model)
    || f(a.framing) - f(b.framing) || cmp(a.framing, b.framing));
  return { threshold, probes, rows, verdicts, order };
}

export const COMPREHENSION_COLUMNS = ['model', 'game', 'framing', 'outcome', 'asked', 'correct', 'invalid', 'accuracy', 'accuracy_lo', 'accuracy_hi'];

export function comprehensionCsv(c: Comprehension): string {
  return toCsv(COMPREHENSION_COLUMNS, c.rows.map((r) => [r.model, r.game, r.framing, r.outcome, r.asked, r.correct, r.invalid, r.accuracy, r.lo, r.hi]));
}

/** Why a framing is not shown payoff-equivalent, in words ("" when it is). */
export function verdictReason(v: ComprehensionVerdict, threshold: number): string {
  const why = [...(v.below ? [`below ${threshold}`] : []), ...(v.differsFrom.length ? [`below ${v.differsFrom.join(', ')} by more than sampling error`] : [])];
  return why.join('; ');
}

export const VERDICT_COLUMNS = ['model', 'framing', 'asked', 'correct', 'accuracy', 'accuracy_lo', 'accuracy_hi', 'threshold', 'verdict', 'reason'];

export function verdictsCsv(c: Comprehension): string {
  return toCsv(VERDICT_COLUMNS, c.verdicts.map((v) => [v.model, v.framing, v.asked, v.correct, v.accuracy, v.lo, v.hi, c.threshold,
    v.shown ? 'shown' : NOT_SHOWN, verdictReason(v, c.threshold)]));
}

/**
 * The verdicts of a contrast's two framings, each model's compared with each other only: below the
 * threshold, or below the other framing of the pair by more than sampling error.
 */
export function pairVerdicts(c: Comprehension, pair: readonly [string, string]): ComprehensionVerdict[] {
  return comprehensionVerdicts(c.probes.filter((p) => pair.includes(p.framing)), c.threshold);
}

/**
 * The mark of each Table 3 row: a model whose base or alternative framing is not shown
 * payoff-equivalent for it (pairVerdicts) carries NOT_SHOWN and the framings; one without probes of
 * both framings "not measured"; Pooled carries the models marked. Keys: the models, then `pooled`.
 */
export function table3Marks(c: Comprehension, models: readonly string[], pair: readonly [string, string], pooled: string): Map<string, string> {
  const out = new Map<string, string>();
  const marked: string[] = [];
  const verdicts = pairVerdicts(c, pair);
  for (const model of models) {
    const vs = pair.map((f) => verdicts.find((v) => v.model === model && v.framing === f));
    const not = vs.filter((v) => v !== undefined && !v.shown).map((v) => v!.framing);
    if (not.length) marked.push(model);
    out.set(model, not.length ? `${NOT_SHOWN} (${not.join(', ')})` : vs.some((v) => v === undefined) ? 'not measured' : 'shown');
  }
  const rest = [...out.values()].every((v) => v === 'shown') ? 'shown' : 'not measured';
  out.set(pooled, marked.length ? `pools models ${NOT_SHOWN.replace('this model', 'them')}: ${marked.join(', ')}` : rest);
  return out;
}

/** The figure: accuracy per framing and model, with Wilson intervals and the threshold. */
export function comprehensionFigure(c: Comprehension): Figure {
  const points = c.verdicts.map((v) => ({ model: v.model, framing: v.framing, accuracy: v.accuracy, lo: v.lo, hi: v.hi, asked: v.asked,
    verdict: v.shown ? 'shown' as const : 'not shown' as const }));
  const probes = c.verdicts.reduce((n, v) => n + v.asked, 0);
  return comprehensionChart(points, {
    framings: [...new Set(c.verdicts.map((v) => v.framing))], models: [...new Set(c.verdicts.map((v) => v.model))], threshold: c.threshold,
    subtitle: `${probes} probes answered; threshold ${c.threshold}`,
  });
}
