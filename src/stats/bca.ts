import { normalCdf, normalQuantile } from './normal.js';
import { quantilesUnsorted } from './quantile.js';

/**
 * Efron's bias-corrected and accelerated (BCa) bootstrap interval, as
 * scipy.stats.bootstrap(method='BCa') computes it for independent samples (docs/methods.md,
 * "BCa intervals"). Pure numerics: the bootstrap engine supplies the replicates, the point and
 * each cell's jackknife.
 */

/**
 * The leave-one-unit-out values of one cell's rate: the distinct rates obtained by leaving out
 * one unit (a trial; a cluster, for an observation kind that resamples clusters), each with the
 * number of units that give it. `units` is the number of units n_j of the cell. A binary cell x/n
 * has two distinct values, so the jackknife costs O(cells) evaluations, not O(trials).
 */
export interface CellJackknife {
  readonly rates: Float64Array;
  readonly weights: Float64Array;
  readonly units: number;
}

/** Leave one trial out of x successes in n: a 1 gives (x−1)/(n−1) (x times), a 0 gives x/(n−1) (n−x times). */
export function binaryJackknife(n: number, x: number): CellJackknife {
  if (n < 2) return { rates: new Float64Array(0), weights: new Float64Array(0), units: n };
  const rates: number[] = [];
  const weights: number[] = [];
  if (x > 0) { rates.push((x - 1) / (n - 1)); weights.push(x); }
  if (x < n) { rates.push(x / (n - 1)); weights.push(n - x); }
  return { rates: Float64Array.from(rates), weights: Float64Array.from(weights), units: n };
}

/** Leave one value out of per-unit values (trial probabilities, or cluster means of equal-sized clusters). */
export function valuesJackknife(values: ArrayLike<number>): CellJackknife {
  const m = values.length;
  if (m < 2) return { rates: new Float64Array(0), weights: new Float64Array(0), units: m };
  let sum = 0;
  for (let i = 0; i < m; i++) sum += values[i];
  const rates = new Float64Array(m);
  for (let i = 0; i < m; i++) rates[i] = (sum - values[i]) / (m - 1);
  return { rates, weights: new Float64Array(m).fill(1), units: m };
}

/** Evaluate a statistic vector on one rate per cell (the shape of the bootstrap engine's estimands). */
export type EvaluateRates = (rates: Float64Array, out: Float64Array) => void;

/**
 * The acceleration â of every statistic: with θ_(j,i) the statistics with unit i of cell j left
 * out and θ̄_j their mean, U_ji = (n_j − 1)(θ̄_j − θ_(j,i)) and
 * â = (1/6) Σ_j Σ_i U_ji³/n_j³ / (Σ_j Σ_i U_ji²/n_j²)^{3/2} (scipy's _bca_interval). A statistic
 * whose jackknife is flat (0/0) gets â = 0.
 */
export function jackknifeAcceleration(observed: Float64Array, cells: readonly CellJackknife[],
  evaluate: EvaluateRates, statistics: number): Float64Array {
  const num = new Float64Array(statistics);
  const den = new Float64Array(statistics);
  const rates = Float64Array.from(observed);
  const out = new Float64Array(statistics);
  cells.forEach((jk, j) => {
    const k = jk.rates.length;
    const n = jk.units;
    if (k === 0 || n < 2) return;
    const theta = new Float64Array(k * statistics);
    for (let i = 0; i < k; i++) {
      rates[j] = jk.rates[i];
      evaluate(rates, out);
      theta.set(out, i * statistics);
    }
    rates[j] = observed[j];
    for (let s = 0; s < statistics; s++) {
      let mean = 0;
      for (let i = 0; i < k; i++) mean += jk.weights[i] * theta[i * statistics + s];
      mean /= n;
      let u2 = 0, u3 = 0;
      for (let i = 0; i < k; i++) {
        const u = (n - 1) * (mean - theta[i * statistics + s]);
        u2 += jk.weights[i] * u * u;
        u3 += jk.weights[i] * u * u * u;
      }
      num[s] += u3 / (n * n * n);
      den[s] += u2 / (n * n);
    }
  });
  const a = new Float64Array(statistics);
  for (let s = 0; s < statistics; s++) a[s] = den[s] > 0 ? num[s] / (6 * den[s] ** 1.5) : (Number.isNaN(den[s]) ? NaN : 0);
  return a;
}

/** Share of replicates below the point, ties counted half (scipy's "mean" _percentile_of_score). */
export function shareBelow(replicates: ArrayLike<number>, point: number): number {
  let below = 0, ties = 0;
  for (let r = 0; r < replicates.length; r++) {
    if (replicates[r] < point) below++;
    else if (replicates[r] === point) ties++;
  }
  return (2 * below + ties) / (2 * replicates.length);
}

/** The BCa quantile levels Φ(z0 + (z0 + z)/(1 − â(z0 + z))) at z = Φ⁻¹(α) and Φ⁻¹(1 − α). */
export function bcaLevels(z0: number, accel: number, level: number): [number, number] {
  const alpha = (1 - level) / 2;
  const at = (z: number) => { const t = z0 + z; return normalCdf(z0 + t / (1 - accel * t)); };
  const za = normalQuantile(alpha);
  return [at(za), at(-za)];
}

export interface BcaInterval {
  readonly lo: number;
  readonly hi: number;
  /** Bias correction z0 (±∞ when every replicate lies on one side of the point). */
  readonly z0: number;
  /** Set when z0 is infinite: the interval is the percentile one. */
  readonly fallback?: 'z0-infinite';
  /** The quantile levels the ends were read at (the adjusted BCa levels; the percentile ones on fallback). */
  readonly levels: readonly [number, number];
}

/**
 * The BCa interval of one statistic from its replicates (`scratch` is reordered), its point
 * and its acceleration. Where z0 is infinite the percentile endpoints are returned, flagged.
 * NaN replicates or point give NaN ends.
 */
export function bcaInterval(scratch: Float64Array, point: number, accel: number, level: number): BcaInterval {
  const alpha = (1 - level) / 2;
  const nan = { lo: NaN, hi: NaN, z0: NaN, levels: [NaN, NaN] as const };
  if (Number.isNaN(point)) return nan;
  for (let r = 0; r < scratch.length; r++) if (Number.isNaN(scratch[r])) return nan;
  const z0 = normalQuantile(shareBelow(scratch, point));
  if (!Number.isFinite(z0)) {
    const [lo, hi] = quantilesUnsorted(scratch, [alpha, 1 - alpha]);
    return { lo, hi, z0, fallback: 'z0-infinite', levels: [alpha, 1 - alpha] };
  }
  const [q1, q2] = bcaLevels(z0, Number.isNaN(accel) ? 0 : accel, level);
  const clamp = (q: number) => Math.min(1, Math.max(0, q));
  const levels = [clamp(q1), clamp(q2)] as const;
  const [lo, hi] = quantilesUnsorted(scratch, levels);
  return { lo, hi, z0, levels };
}
