import { quantilesUnsorted } from './quantile.js';

/**
 * A simultaneous (sup-t) confidence band for several statistics from their bootstrap replicates
 * (Montiel Olea and Plagborg-Møller 2019, "Simultaneous confidence bands: theory, implementation,
 * and an application to SVARs", J. Applied Econometrics 34:1, §3, the bootstrap implementation):
 * each statistic j has its replicates' standard deviation σ_j; c is the `level` quantile (R-7) of
 * max_j |θ*_j − θ̂_j|/σ_j over the replicates; the band is θ̂_j ± c·σ_j. All statistics lie in
 * their bands together with probability about `level`. A statistic whose replicates do not vary
 * (σ_j = 0) takes no part in the maximum and keeps its point as its band.
 */
export interface SupTBand {
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  /** The critical value c (≥ the pointwise z when there is more than one statistic). */
  readonly c: number;
}

/** `replicates` statistic-major (replicates[j · reps + r]); `indices` the statistics of the family. */
export function supTBand(replicates: Float64Array, reps: number, indices: readonly number[], point: ArrayLike<number>, level = 0.95): SupTBand {
  const k = indices.length;
  const sd = new Float64Array(k);
  indices.forEach((j, i) => {
    let m = 0;
    for (let r = 0; r < reps; r++) m += replicates[j * reps + r];
    m /= reps;
    let v = 0;
    for (let r = 0; r < reps; r++) v += (replicates[j * reps + r] - m) ** 2;
    sd[i] = Math.sqrt(v / Math.max(1, reps - 1));
  });
  const maxT = new Float64Array(reps);
  indices.forEach((j, i) => {
    if (!(sd[i] > 0)) return;
    const p = point[j], s = sd[i];
    for (let r = 0; r < reps; r++) {
      const t = Math.abs(replicates[j * reps + r] - p) / s;
      if (t > maxT[r] || Number.isNaN(t)) maxT[r] = t;
    }
  });
  const [c] = quantilesUnsorted(maxT, [level]);
  const lo = new Float64Array(k), hi = new Float64Array(k);
  indices.forEach((j, i) => { lo[i] = point[j] - c * sd[i]; hi[i] = point[j] + c * sd[i]; });
  return { lo, hi, c };
}
