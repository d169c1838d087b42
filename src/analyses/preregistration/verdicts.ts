/**
 * Mechanical verdicts (docs/methods.md §25): each hypothesis of a sealed plan adjudicated on the
 * run's counts — its statistic, interval and p-value, the family-wise adjusted p (Holm by default)
 * and supported / not supported / inconclusive.
 */
import { chi2Sf } from '../../stats/chi2.js';
import { normalCdf, normalQuantile } from '../../stats/normal.js';
import type { Correction, Hypothesis, Plan } from './plan.js';

/** One cell's valid decisions: x first actions (C) of n. */
export interface VerdictCell { readonly model: string; readonly game: string; readonly framing: string; readonly x: number; readonly n: number }

export type Verdict = 'supported' | 'not supported' | 'inconclusive';

export interface VerdictRow {
  readonly id: string;
  readonly predicate: string;
  readonly test: string;
  readonly statistic: number;
  readonly lo: number;
  readonly hi: number;
  readonly p: number;
  readonly pAdjusted: number;
  readonly verdict: Verdict;
  /** The pairs (model–game) the estimand read. */
  readonly pairs: number;
}

interface Pair { readonly model: string; readonly game: string; readonly b: VerdictCell; readonly s: VerdictCell }

/** The planned pairs (base, alt) of every model–game that has both framings with valid decisions. */
function pairsOf(cells: readonly VerdictCell[], base: string, alt: string): Pair[] {
  const at = new Map(cells.map((c) => [`${c.model}\u0000${c.game}\u0000${c.framing}`, c]));
  const out: Pair[] = [];
  for (const c of cells) {
    if (c.framing !== base) continue;
    const s = at.get(`${c.model}\u0000${c.game}\u0000${alt}`);
    if (s && c.n > 0 && s.n > 0) out.push({ model: c.model, game: c.game, b: c, s });
  }
  return out;
}

/** G of one pair's 2 × 2 table (2 Σ O ln(O/E)). */
function gOfPair(p: Pair): number {
  const rows = [[p.b.x, p.b.n - p.b.x], [p.s.x, p.s.n - p.s.x]];
  const nTot = p.b.n + p.s.n;
  const cols = [p.b.x + p.s.x, nTot - p.b.x - p.s.x];
  let g = 0;
  rows.forEach((r, i) => r.forEach((o, j) => {
    if (o > 0) g += o * Math.log(o / (((i === 0 ? p.b.n : p.s.n) * cols[j]) / nTot));
  }));
  return 2 * g;
}

type Raw = Omit<VerdictRow, 'pAdjusted' | 'verdict'> & { readonly against: number };

const rate = (c: VerdictCell) => c.x / c.n;
const H = (p: number) => (p <= 0 || p >= 1 ? 0 : -p * Math.log(p) - (1 - p) * Math.log(1 - p));

/** A pair's estimate and its derivatives in p_base and p_alt: shift = p_alt − p_base; R2 = 1 − JSD/ln 2 (∂JSD/∂p = ½ ln(p(1 − m)/((1 − p)m))). */
function cellTerms(e: 'shift' | 'R', pb: number, ps: number): { value: number; db: number; ds: number } {
  if (e === 'shift') return { value: ps - pb, db: -1, ds: 1 };
  const m = (pb + ps) / 2;
  const dj = (p: number) => 0.5 * Math.log((p * (1 - m)) / ((1 - p) * m));
  return { value: 1 - (H(m) - (H(pb) + H(ps)) / 2) / Math.LN2, db: -dj(pb) / Math.LN2, ds: -dj(ps) / Math.LN2 };
}

/**
 * shift or R: the mean over the pairs; variance (1/k²) Σ (db² p_b(1 − p_b)/n_b + ds² p_s(1 − p_s)/n_s) (Wald; R's by the delta
 * method, undefined at a rate of 0 or 1, and near R = 1 where its derivatives vanish: §25); one-sided z-test against value.
 */
function meanRaw(h: Hypothesis, pairs: readonly Pair[], alpha: number): Raw {
  const k = pairs.length;
  const terms = pairs.map((p) => ({ p, t: cellTerms(h.estimand as 'shift' | 'R', rate(p.b), rate(p.s)) }));
  const d = terms.reduce((s, x) => s + x.t.value, 0) / k;
  const v = terms.reduce((s, { p, t }) => s + (t.db ** 2 * rate(p.b) * (1 - rate(p.b))) / p.b.n + (t.ds ** 2 * rate(p.s) * (1 - rate(p.s))) / p.s.n, 0)
    / (k * k);
  const se = Number.isFinite(v) ? Math.sqrt(v) : NaN;
  const sign = h.compare === '>' ? 1 : -1;
  const z = Number.isNaN(se) ? NaN : se > 0 ? (sign * (d - h.value!)) / se : sign * (d - h.value!) > 0 ? Infinity : -Infinity;
  const half = normalQuantile(1 - alpha / 2) * se;
  return { id: h.id, predicate: predicateText(h), test: h.estimand === 'R' ? 'z (delta method, one-sided)' : 'z (Wald, one-sided)', statistic: d,
    lo: d - half, hi: d + half, p: Number.isNaN(z) ? NaN : 1 - normalCdf(z), against: Number.isNaN(z) ? NaN : normalCdf(z), pairs: k };
}

/** framing-test: G summed over the pairs, χ² with one df per pair; `every`: each model's test, p the largest (intersection–union). */
function testRaw(h: Hypothesis, pairs: readonly Pair[]): Raw {
  const groups = h.model === 'every' ? [...new Set(pairs.map((p) => p.model))].map((m) => pairs.filter((p) => p.model === m)) : [pairs];
  const tests = groups.map((g) => { const G = g.reduce((s, p) => s + gOfPair(p), 0); return { G, p: chi2Sf(G, g.length) }; });
  const worst = tests.reduce((a, b) => (b.p > a.p ? b : a));
  return { id: h.id, predicate: predicateText(h), test: h.model === 'every' ? 'G-test per model (largest p)' : 'G-test', statistic: worst.G,
    lo: NaN, hi: NaN, p: worst.p, against: NaN, pairs: pairs.length };
}

export function predicateText(h: Hypothesis): string {
  if (h.estimand === 'framing-test') return `framing changes behaviour (G-test) for ${h.model === 'every' ? 'every model' : h.model}`;
  return `${h.estimand}(${h.model}${h.game === undefined ? '' : `, ${h.game}`}) ${h.compare} ${h.value}`;
}

/** Family-wise adjusted p-values, in the given order. */
export function adjustP(ps: readonly number[], c: Correction): number[] {
  const m = ps.length;
  if (c === 'none') return [...ps];
  if (c === 'bonferroni') return ps.map((p) => Math.min(1, m * p));
  const order = ps.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], j) => { running = Math.max(running, Math.min(1, (m - j) * p)); out[i] = running; });
  return out;
}

/** Adjudicate every hypothesis of the plan on the cells (a hypothesis whose estimand has no pair is inconclusive, p NaN). */
export function adjudicate(plan: Plan, cells: readonly VerdictCell[]): VerdictRow[] {
  const all = pairsOf(cells, plan.analysis.base, plan.analysis.alt);
  const raws = plan.hypotheses.map((h): Raw => {
    const pairs = all.filter((p) => (h.model === 'pooled' || h.model === 'every' || p.model === h.model) && (h.game === undefined || p.game === h.game));
    if (pairs.length === 0) {
      return { id: h.id, predicate: predicateText(h), test: 'none (no pair)', statistic: NaN, lo: NaN, hi: NaN, p: NaN, against: NaN, pairs: 0 };
    }
    return h.estimand === 'framing-test' ? testRaw(h, pairs) : meanRaw(h, pairs, plan.alpha);
  });
  const adj = adjustP(raws.map((r) => (Number.isNaN(r.p) ? 1 : r.p)), plan.correction);
  return raws.map(({ against, ...r }, i) => {
    const pAdjusted = Number.isNaN(r.p) ? NaN : adj[i];
    const verdict: Verdict = pAdjusted <= plan.alpha ? 'supported' : against <= plan.alpha ? 'not supported' : 'inconclusive';
    return { ...r, pAdjusted, verdict };
  });
}
