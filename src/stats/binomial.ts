import type { RandomSource } from './rng.js';

/**
 * Exact Binomial(n, p) probability table, computed from the mode outward with the pmf ratio
 * P(k+1)/P(k) = (n−k)/(k+1) · p/(1−p) and normalized, so nothing underflows at the centre
 * even for large n (where (1−p)^n would).
 */
export function binomialPmf(n: number, p: number): Float64Array {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer: ${n}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p out of [0,1]: ${p}`);
  const pmf = new Float64Array(n + 1);
  if (p === 0) { pmf[0] = 1; return pmf; }
  if (p === 1) { pmf[n] = 1; return pmf; }
  const mode = Math.min(n, Math.floor((n + 1) * p));
  const odds = p / (1 - p);
  pmf[mode] = 1;
  for (let k = mode; k < n; k++) pmf[k + 1] = pmf[k] * ((n - k) / (k + 1)) * odds;
  for (let k = mode; k > 0; k--) pmf[k - 1] = pmf[k] * (k / (n - k + 1)) / odds;
  let total = 0;
  for (let k = 0; k <= n; k++) total += pmf[k];
  for (let k = 0; k <= n; k++) pmf[k] /= total;
  return pmf;
}

/**
 * Exact inverse-CDF sampler for Binomial(n, p): one uniform per draw, a binary search over the
 * cumulative table. Exact up to the 53-bit resolution of the uniform.
 */
export class BinomialSampler {
  private readonly cdf: Float64Array;
  constructor(readonly n: number, readonly p: number) {
    const pmf = binomialPmf(n, p);
    this.cdf = new Float64Array(n + 1);
    let c = 0;
    for (let k = 0; k <= n; k++) { c += pmf[k]; this.cdf[k] = c; }
    this.cdf[n] = 1; // absorb rounding so every uniform in [0,1) maps to a value
  }
  /** Smallest k with CDF(k) > u. */
  draw(rng: RandomSource): number {
    const u = rng.next();
    const cdf = this.cdf;
    let lo = 0, hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] > u) hi = mid; else lo = mid + 1;
    }
    return lo;
  }
}
