/**
 * Effect sizes of a two-framing contrast and their sampling variances (docs/methods.md, "Meta-
 * analysis"): the shift p_alt − p_base (risk difference, metafor's escalc "RD") or the log odds
 * ratio ("OR"), alt as the first group; or the Jensen–Shannon distance √(1 − R2), the scale on
 * which R is pooled (delta-method variance). Counts follow escalc with add = 1/2, to = "only0": when
 * any of the four counts of the 2 × 2 table is 0, 1/2 is added to all four (so n grows by 1).
 */

import { cr2Contrast } from '../cluster-robust.js';
import { clusterCount, MIN_CLUSTERS } from '../cluster-intervals.js';

export type EffectMeasure = 'shift' | 'logor' | 'distance';
export const EFFECT_MEASURES: readonly EffectMeasure[] = ['shift', 'logor', 'distance'];
/** The values each effect can take: a difference of two rates, any log odds ratio, a distance in [0, 1]. */
export const EFFECT_RANGE: Readonly<Record<EffectMeasure, readonly [number, number]>> = { shift: [-1, 1], logor: [-Infinity, Infinity], distance: [0, 1] };

export interface Effect {
  readonly yi: number;
  readonly vi: number;
  /** True when the 1/2 was added (a count was 0, or a rate sat at 0 or 1 with no variance). */
  readonly adjusted: boolean;
}

/** x first actions of n under each framing → the effect of alt over base. */
export function countsEffect(xAlt: number, nAlt: number, xBase: number, nBase: number, measure: EffectMeasure): Effect {
  const adjusted = xAlt === 0 || xAlt === nAlt || xBase === 0 || xBase === nBase;
  const add = adjusted ? 0.5 : 0;
  const a = xAlt + add;
  const b = nAlt - xAlt + add;
  const c = xBase + add;
  const d = nBase - xBase + add;
  if (measure === 'logor') return { yi: Math.log((a * d) / (b * c)), vi: 1 / a + 1 / b + 1 / c + 1 / d, adjusted };
  const pa = a / (a + b);
  const pb = c / (c + d);
  if (measure === 'distance') return { ...distance({ p: pa, variance: (pa * (1 - pa)) / (a + b), n: a + b }, { p: pb, variance: (pb * (1 - pb)) / (c + d),
    n: c + d }), adjusted };
  return { yi: pa - pb, vi: (pa * (1 - pa)) / (a + b) + (pb * (1 - pb)) / (c + d), adjusted };
}

/** A rate with the variance of its estimate and the number of decisions behind it. */
export interface RateEstimate {
  readonly p: number;
  readonly variance: number;
  readonly n: number;
}

/**
 * The binomial stand-in for a rate whose estimated variance is 0 (every trial or cluster alike):
 * the add-1/2 rule on its n decisions, p̃ = (p·n + 1/2)/(n + 1), variance p̃(1 − p̃)/(n + 1).
 */
function adjustedRate(r: RateEstimate): RateEstimate {
  const p = (r.p * r.n + 0.5) / (r.n + 1);
  return { p, variance: (p * (1 - p)) / (r.n + 1), n: r.n + 1 };
}

/**
 * The effect of two rates estimated with their own variances (probability cells, clustered
 * cells): shift p_alt − p_base with variance V_alt + V_base; log odds ratio by the delta method,
 * V/(p(1 − p))². A rate with variance 0 (or at 0 or 1, for the log odds ratio) takes the add-1/2
 * stand-in — both rates then do, as escalc adjusts the whole table.
 */
export function ratesEffect(alt: RateEstimate, base: RateEstimate, measure: EffectMeasure): Effect {
  const flat = (r: RateEstimate) => r.variance === 0 || (measure !== 'shift' && (r.p === 0 || r.p === 1));
  const adjusted = flat(alt) || flat(base);
  const a = adjusted ? adjustedRate(alt) : alt;
  const b = adjusted ? adjustedRate(base) : base;
  if (measure === 'shift') return { yi: a.p - b.p, vi: a.variance + b.variance, adjusted };
  if (measure === 'distance') return { ...distance(a, b), adjusted };
  const logit = (p: number) => Math.log(p / (1 - p));
  const dv = (r: RateEstimate) => r.variance / (r.p * (1 - r.p)) ** 2;
  return { yi: logit(a.p) - logit(b.p), vi: dv(a) + dv(b), adjusted };
}

/**
 * The cluster-robust variance of a ratio mean p = Σ sⱼ / Σ nⱼ over G clusters: the CR2 variance
 * (Bell & McCaffrey 2002; Pustejovsky & Tipton 2018) the cell intervals use (stats/cluster-robust.ts),
 * Σ eⱼ²/(1 − nⱼ/N) / N² with eⱼ = sⱼ − p·nⱼ — with equal cluster sizes G/(G − 1)·Σ eⱼ²/N², the CR1
 * factor. NaN with fewer than MIN_CLUSTERS (3) clusters, where the cell intervals give none either.
 */
export function clusteredRate(sizes: Float64Array, sums: Float64Array): RateEstimate {
  const c = cr2Contrast([{ group: 0, column: { sizes, sums }, coef: 1 }]);
  let N = 0;
  for (let j = 0; j < sizes.length; j++) N += sizes[j];
  return { p: c.estimate, variance: clusterCount({ sizes, sums }) < MIN_CLUSTERS ? NaN : c.variance, n: N };
}

/** The mean of per-trial probabilities with the variance of a mean, s²/m (NaN with fewer than 2 trials). */
export function meanRate(values: Float64Array): RateEstimate {
  const m = values.length;
  let s = 0;
  for (let i = 0; i < m; i++) s += values[i];
  const p = s / m;
  if (m < 2) return { p, variance: NaN, n: m };
  let ss = 0;
  for (let i = 0; i < m; i++) ss += (values[i] - p) ** 2;
  return { p, variance: ss / (m - 1) / m, n: m };
}

/**
 * The Jensen–Shannon distance d = √(JSD(p_a, p_b)/ln 2) = √(1 − R2) of two rates, with the
 * delta-method variance Σ (∂d/∂p)² V, ∂d/∂p = ½ ln[p(1 − m)/((1 − p)m)] / (2 d ln 2), m the mean
 * rate. At d → 0 the gradient tends to ±1/√(8 m(1 − m) ln 2), so the variance to
 * (V_a + V_b)/(8 m(1 − m) ln 2): d is about |p_a − p_b| scaled by the rates' spread.
 */
export function distance(a: RateEstimate, b: RateEstimate): { yi: number; vi: number } {
  const m = (a.p + b.p) / 2;
  const h = (p: number) => (p > 0 ? -p * Math.log(p) : 0) + (p < 1 ? -(1 - p) * Math.log(1 - p) : 0);
  const jsd = Math.max(0, h(m) - (h(a.p) + h(b.p)) / 2);
  const d = Math.sqrt(jsd / Math.LN2);
  if (d < 1e-6) return { yi: d, vi: (a.variance + b.variance) / (8 * m * (1 - m) * Math.LN2) };
  const grad = (p: number) => (0.5 * Math.log((p * (1 - m)) / ((1 - p) * m))) / (2 * d * Math.LN2);
  return { yi: d, vi: grad(a.p) ** 2 * a.variance + grad(b.p) ** 2 * b.variance };
}

/**
 * The effect of a formula f(p_base, p_alt) of two rates (a Table 3 column's per-pair value), with
 * the delta-method variance Σ (∂f/∂p)² V, the derivatives by forward differences of step 1e-6
 * towards the interior of [0, 1]. A rate with variance 0 takes the add-1/2 stand-in, both rates
 * then do (as for the shift).
 */
export function formulaEffect(alt: RateEstimate, base: RateEstimate, f: (pBase: number, pAlt: number) => number): Effect {
  const adjusted = alt.variance === 0 || base.variance === 0;
  const a = adjusted ? adjustedRate(alt) : alt;
  const b = adjusted ? adjustedRate(base) : base;
  const yi = f(b.p, a.p);
  const h = (p: number) => (p < 0.5 ? 1e-6 : -1e-6);
  const dAlt = (f(b.p, a.p + h(a.p)) - yi) / h(a.p);
  const dBase = (f(b.p + h(b.p), a.p) - yi) / h(b.p);
  return { yi, vi: dAlt ** 2 * a.variance + dBase ** 2 * b.variance, adjusted };
}
