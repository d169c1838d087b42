import { streamFor, type RandomSource } from './rng.js';
import { BtrdSampler } from './btrd.js';

/**
 * Binomial sampling for the bootstrap, hand-written rather than d3-random's randomBinomial: that
 * one is exact too, but it draws through beta and geometric variates from a Math.random-like
 * source, a varying number per draw, so a draw is not a fixed function of the cell's uniforms.
 * Here the table sampler is an inverse CDF on each replicate's own uniform: with the (seed, cell)
 * stream fixed, a cell's draws move monotonically with its count (common random numbers), which
 * the audit's searches rely on, and it costs one table look-up per draw. Two exact samplers share
 * one interface: the table sampler for n up to BINOMIAL_TABLE_MAX_N (every draw of the shipped data
 * and of stored runs) and BTRD (Hörmann 1993) above it, in O(1) memory.
 */
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
 * Exact inverse-CDF sampler for Binomial(n, p): the smallest k with CDF(k) > u for a uniform u.
 *
 * Speed without giving up exactness: a guide table (Chen & Asau 1974) gives, for each of n+1
 * equal slices of [0, 1), the first k whose CDF exceeds the slice's start, so the search is a
 * short forward scan. The uniform is drawn 32 bits first; only when the 2^-32-wide interval of
 * those bits straddles a CDF step are 21 more bits drawn, which makes the result the same
 * function of a 53-bit uniform as a full-precision draw would be.
 */
export class BinomialSampler {
  private readonly cdf: Float64Array;
  private readonly guide: Int32Array;
  constructor(readonly n: number, readonly p: number) {
    const pmf = binomialPmf(n, p);
    this.cdf = new Float64Array(n + 1);
    let c = 0;
    for (let k = 0; k <= n; k++) { c += pmf[k]; this.cdf[k] = c; }
    this.cdf[n] = 1; // absorb rounding so every uniform in [0,1) maps to a value
    const m = n + 1;
    this.guide = new Int32Array(m);
    let k = 0;
    for (let j = 0; j < m; j++) {
      while (this.cdf[k] <= j / m) k++;
      this.guide[j] = k;
    }
  }

  /** Smallest k with CDF(k) > u, starting from the guide entry of u's slice. */
  private search(u: number): number {
    const cdf = this.cdf;
    let k = this.guide[Math.floor(u * (this.n + 1))];
    while (cdf[k] <= u) k++;
    return k;
  }

  draw(rng: RandomSource): number {
    const hi = rng.nextUint32();
    const u0 = hi / 4294967296;
    const k = this.search(u0);
    // Every u in [u0, u0 + 2^-32) maps to k when CDF(k) ≥ u0 + 2^-32 (and CDF(k−1) ≤ u0 holds).
    if (this.cdf[k] >= (hi + 1) / 4294967296) return k;
    const lo = rng.nextUint32() >>> 11; // 21 more bits: u = (hi·2^21 + lo) / 2^53
    return this.search((hi * 2097152 + lo) / 9007199254740992);
  }
}

/** What every binomial sampler offers: one exact draw from the given source. */
export interface BinomialDraw {
  draw(rng: RandomSource): number;
}

/**
 * Largest n for which a cell's draws come from the table sampler above. Every n ≤ this gets the
 * same draws it always had (same seed, same bytes); above it the (n + 1)-entry table would cost
 * O(n) memory and set-up per cell, and the O(1)-memory BTRD sampler (btrd.ts) is used instead.
 */
export const BINOMIAL_TABLE_MAX_N = 65_536;

/** The exact sampler for Binomial(n, p): the table sampler up to BINOMIAL_TABLE_MAX_N, BTRD above. */
export function binomialSampler(n: number, p: number): BinomialDraw {
  return n <= BINOMIAL_TABLE_MAX_N ? new BinomialSampler(n, p) : new BtrdSampler(n, p);
}

/**
 * Redraw a binary cell (x of n) `reps` times from its (seed, key) stream as counts: the draws
 * `redrawCell` turns into rates (count · (1/n)), for callers that keep integers.
 */
export function redrawCounts(n: number, x: number, seed: number, key: string, reps: number, out: Int32Array): void {
  const rng = streamFor(seed, key);
  if (n === 0) { out.fill(0, 0, reps); return; }
  const sampler = binomialSampler(n, x / n);
  for (let r = 0; r < reps; r++) out[r] = sampler.draw(rng);
}
