import { normalQuantile } from './normal.js';
import { quantileSorted, quantilesUnsorted, tailQuantiles } from './quantile.js';

/**
 * Monte Carlo error of a bootstrap percentile by batch splitting (the batch-means method; e.g.
 * Efron & Tibshirani 1993 §19.3 for the variability of bootstrap percentiles): the B replicates
 * are cut into k contiguous batches of B/k, the percentile is computed in each, and the standard
 * error of the full-B percentile is estimated as sd(batch percentiles)/√k — each batch estimates
 * the same quantity with k times the variance of the full estimate. Replicates are independent
 * across r (replicate r uses the r-th draw of every cell stream), so contiguous batches are fair.
 *
 * Replicates needed for a target error: the error falls as 1/√B, so B_needed = ⌈B·(se/target)²⌉.
 * If B is not a multiple of k, the last B mod k replicates take part only in the full estimate.
 */
export interface McError {
  readonly estimate: number;
  readonly batches: number;
  readonly batchEstimates: readonly number[];
  readonly se: number;
  readonly repsNeeded: number;
}

/** Batches used for B replicates: 20, fewer when a batch would hold under 200 replicates (≥ 2). */
export function defaultBatches(reps: number): number {
  return Math.max(2, Math.min(20, Math.floor(reps / 200)));
}

export function mcErrorOfQuantile(replicates: ArrayLike<number>, q: number, batches: number, target = 0.001): McError {
  const B = replicates.length;
  if (!Number.isInteger(batches) || batches < 2) throw new RangeError(`batches must be an integer ≥ 2: ${batches}`);
  if (B < batches) throw new RangeError(`${B} replicates cannot fill ${batches} batches`);
  if (!(target > 0)) throw new RangeError(`target must be positive: ${target}`);
  const src = Float64Array.from(replicates);
  const estimate = quantileOf(src.slice(), q);
  const size = Math.floor(B / batches);
  const est: number[] = [];
  for (let b = 0; b < batches; b++) est.push(quantileOf(src.slice(b * size, (b + 1) * size), q));
  const m = est.reduce((s, x) => s + x, 0) / batches;
  const v = est.reduce((s, x) => s + (x - m) ** 2, 0) / (batches - 1);
  // Equal batch estimates (a statistic that cannot vary) have no error; the mean's rounding would say 1e-17.
  const se = est.every((x) => x === est[0]) ? 0 : Math.sqrt(v / batches);
  // An extrapolation from B along 1/√B; below B it says how many would have sufficed.
  const repsNeeded = Math.max(1, Math.ceil(B * (se / target) ** 2));
  return { estimate, batches, batchEstimates: est, se, repsNeeded };
}

/**
 * The R-7 quantile of a sample as sorting then quantileSorted gives it, by selection where the
 * sample holds no NaN and no −0 (the same order statistics, the same interpolation); with either,
 * which sorting orders (NaN last, −0 before +0) and selection does not tell apart, by sorting.
 */
function quantileOf(scratch: Float64Array, q: number): number {
  for (let i = 0; i < scratch.length; i++) {
    const x = scratch[i];
    if (x !== x || (x === 0 && 1 / x < 0)) return quantileSorted(scratch.sort(), q);
  }
  return quantilesUnsorted(scratch, [q])[0];
}

/**
 * The normal quantile of a family-wise two-sided level: z = Φ⁻¹(1 − α/(2k)) over k comparisons
 * (Bonferroni), so that all k hold together with probability at least about 1 − α.
 */
export function familyZ(alpha: number, k: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must lie in (0, 1): ${alpha}`);
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer: ${k}`);
  return normalQuantile(1 - alpha / (2 * k));
}

/**
 * The spread of quantile levels δ = z · √(q(1 − q)(1/B_c + 1/B_p)) within which the level of a
 * second, independent R-7 quantile estimate lies (with B_p replicates of the same distribution),
 * as read on the empirical distribution of B_c replicates: each empirical distribution function
 * at the true quantile has variance q(1 − q)/B (the order-statistic interval of a quantile).
 */
export function quantileLevelSpread(q: number, z: number, computedReps: number, publishedReps: number): number {
  return z * Math.sqrt(q * (1 - q) * (1 / computedReps + 1 / publishedReps));
}

/**
 * [Q̂(q − δ), Q̂(q + δ)] of a sample (levels clamped to [0, 1]), read by selection in `scratch` (a
 * buffer of the sample's length, overwritten), so the caller's replicates are not reordered and
 * one buffer serves every statistic.
 */
export function quantileBand(replicates: Float64Array, q: number, delta: number, scratch: Float64Array): [number, number] {
  if (scratch.length !== replicates.length) throw new RangeError(`scratch holds ${scratch.length} values, the sample ${replicates.length}`);
  scratch.set(replicates);
  const [lo, hi] = tailQuantiles(scratch, [Math.max(0, q - delta), Math.min(1, q + delta)]);
  return [lo, hi];
}
