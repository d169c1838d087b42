/**
 * Trim and fill (Duval & Tweedie 2000a, 2000b) as metafor's trimfill(rma.uni) runs it. The side
 * of the missing effects is the one opposite the slope of yᵢ on √vᵢ (a negative slope: missing on
 * the right). On that side's mirror image (effects negated when the right), sorted: repeat —
 * fit the model to the k − k₀ smallest effects, rank |yᵢ − μ̂| over all k (ties by order) with the
 * sign of yᵢ − μ̂, and estimate k₀ by
 *   L0 = (4·S_r − k(k + 1))/(2k − 1), S_r the sum of the positive ranks, or
 *   R0 = k − r* − 1, r* the largest rank among the negative ones —
 * rounded and kept ≥ 0, until k₀ no longer changes. The k₀ most extreme effects are then mirrored
 * about the trimmed estimate, 2μ̂ − yᵢ with the same vᵢ, and the model refitted to the k + k₀ — as
 * metafor 3.8 refits it, with the model's τ² estimator but a Wald (z) interval whatever the model's
 * test (its call passes the method, not the test). With k₀ = 0 the result is the model itself.
 */
import { fitUnivariate, type MetaSettings } from './univariate.js';

export type TrimfillEstimator = 'L0' | 'R0';

export interface Trimfill {
  readonly estimator: TrimfillEstimator;
  readonly side: 'left' | 'right';
  readonly k0: number;
  readonly estimate: number;
  readonly se: number;
  readonly ci_lo: number;
  readonly ci_hi: number;
  readonly tau2: number;
  /** The filled effects (original scale). */
  readonly filled: readonly { readonly yi: number; readonly vi: number }[];
}

const MAX_ITER = 100;

/** The side where effects are missing: right when the slope of y on √v is negative. */
function sideOf(y: Float64Array, v: Float64Array, s: MetaSettings): 'left' | 'right' | undefined {
  const f = fitUnivariate(y, v, { ...s, test: 'z' }, [new Float64Array(y.length).fill(1), v.map(Math.sqrt)]);
  return f && (f.coefficients[1].estimate < 0 ? 'right' : 'left');
}

/** k₀ from the signed ranks of the centred effects. */
function estimateK0(c: Float64Array, estimator: TrimfillEstimator): number {
  const k = c.length;
  const order = Array.from(c, (_, i) => i).sort((a, b) => Math.abs(c[a]) - Math.abs(c[b]) || a - b);
  const rank = new Float64Array(k);
  order.forEach((i, r) => { rank[i] = r + 1; });
  if (estimator === 'L0') {
    let sr = 0;
    for (let i = 0; i < k; i++) if (c[i] > 0) sr += rank[i];
    return (4 * sr - k * (k + 1)) / (2 * k - 1);
  }
  let top = -Infinity;
  for (let i = 0; i < k; i++) if (c[i] < 0) top = Math.max(top, rank[i]);
  return k - top - 1;
}

/** Trim and fill; undefined when a fit fails or k₀ leaves fewer than 2 effects. */
export function trimfill(y: Float64Array, v: Float64Array, s: MetaSettings, estimator: TrimfillEstimator = 'L0'): Trimfill | undefined {
  const side = sideOf(y, v, s);
  if (!side) return undefined;
  const sign = side === 'right' ? -1 : 1;
  const idx = Array.from(y, (_, i) => i).sort((a, b) => sign * y[a] - sign * y[b] || a - b);
  const ys = Float64Array.from(idx, (i) => sign * y[i]);
  const vs = Float64Array.from(idx, (i) => v[i]);
  const k = ys.length;
  let k0 = 0;
  let prev = -1;
  let mu = NaN;
  for (let it = 0; k0 !== prev; it++) {
    if (it >= MAX_ITER || k - k0 < 2) return undefined;
    prev = k0;
    const f = fitUnivariate(ys.subarray(0, k - k0), vs.subarray(0, k - k0), s);
    if (!f) return undefined;
    mu = f.coefficients[0].estimate;
    const raw = estimateK0(ys.map((x) => x - mu), estimator);
    k0 = Number.isFinite(raw) ? Math.max(0, Math.round(raw)) : k;
  }
  const filled = Array.from({ length: k0 }, (_, j) => ({ yi: sign * (2 * mu - ys[k - k0 + j]), vi: vs[k - k0 + j] }));
  const f = fitUnivariate(Float64Array.from([...y, ...filled.map((x) => x.yi)]), Float64Array.from([...v, ...filled.map((x) => x.vi)]),
    k0 > 0 ? { ...s, test: 'z' } : s);
  if (!f) return undefined;
  const c = f.coefficients[0];
  return { estimator, side, k0, estimate: c.estimate, se: c.se, ci_lo: c.ci_lo, ci_hi: c.ci_hi, tau2: f.tau2, filled };
}
