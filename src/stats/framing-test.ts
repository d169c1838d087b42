import { entropyUnchecked } from './jsd.js';
import { chi2Sf, noncentralityInterval } from './chi2.js';
import { jsdBernoulli } from './jsd.js';
import { wilsonInterval } from './wilson.js';
import { exactConditionalP, isSparse, type PairCounts } from './framing-exact.js';

/**
 * The "R = 1" test and the R interval by test inversion (docs/methods.md §8.5). For one planned
 * pair with x_b of n_b and x_s of n_s, the G-test of equal rates is
 *   G = 2N·[H(π p_b + (1 − π) p_s) − π H(p_b) − (1 − π) H(p_s)],  N = n_b + n_s, π = n_b/N
 * (natural logs): 2N times the mutual information of framing and action, asymptotically χ²₁
 * when the rates are equal (Wilks 1938; Sokal and Rohlf, Biometry, §17.2). With n_b = n_s = n the
 * bracket is the JSD itself, so G = 4n·JSD.
 */
export function gStatistic(xb: number, nb: number, xs: number, ns: number): number {
  const N = nb + ns, pi = nb / N, pb = xb / nb, ps = xs / ns;
  const g = 2 * N * (entropyUnchecked(pi * pb + (1 - pi) * ps) - pi * entropyUnchecked(pb) - (1 - pi) * entropyUnchecked(ps));
  return g < 0 ? 0 : g;
}

/**
 * h = 8 n_b n_s/(n_b + n_s): near equal rates the estimated JSD (nats) is JSD̂ ≈ G/h, so
 * E[JSD̂] ≈ JSD + 1/h (E[χ²₁(λ)] = 1 + λ, λ = h·JSD) and the pair's bias is
 * 1/h = (1/n_b + 1/n_s)/8 nats, 1/(4n ln 2) bits at n_b = n_s = n.
 */
export function jsdScale(nb: number, ns: number): number {
  return 8 * nb * ns / (nb + ns);
}

/** One pair of a group: its counts and its (equal-weight) JSD estimate in nats. */
export interface FramingPairCounts {
  readonly xb: number; readonly nb: number;
  readonly xs: number; readonly ns: number;
  readonly jsd: number;
}

export interface FramingTest {
  /** Σ G over the group's pairs. */
  readonly G: number;
  /** Degrees of freedom: the number of pairs. */
  readonly df: number;
  /**
   * The p-value of "R = 1": χ²_k's where every pair's expected counts are at least 5; otherwise the
   * larger of χ²_k's and the exact conditional one (framing-exact.ts), so the test holds its size
   * where χ² fails and "changes" implies the χ² inversion's bound excludes R = 1.
   */
  readonly p: number;
  /** Which p: χ² alone, or the larger of χ² and the exact conditional test (sparse cells). */
  readonly pMethod: 'chi2' | 'exact';
  /** Mean over pairs of JSD̂ − 1/h, floored at 0 (nats). */
  readonly jsdCorrected: number;
  /** The level interval for the mean JSD (nats): by inverting the noncentral χ², or (G = 0) from the rate rectangles. */
  readonly jsdInterval: readonly [number, number];
  /** How the interval was found. */
  readonly intervalMethod: 'inversion' | 'rectangle';
}

/**
 * Where G = 0 (equal rates in every pair: often two cells at 0/n) the χ² inversion, a continuous
 * approximation of a discrete statistic at its minimum, gives the point. Instead every cell gets
 * its Wilson interval at level 1 − α/(2k) (Bonferroni over the group's 2k cells), so all true
 * rates lie in their intervals together with probability ≥ about `level`; JSD is jointly convex,
 * so over a pair's rectangle it is largest at a corner and smallest (0 when the intervals
 * overlap) at the nearest corners. The mean JSD lies between the means of those extremes.
 */
export function rectangleInterval(pairs: readonly FramingPairCounts[], level = 0.95): [number, number] {
  const cellLevel = 1 - (1 - level) / (2 * pairs.length);
  let lo = 0, hi = 0;
  for (const q of pairs) {
    const [bl, bu] = wilsonInterval(q.xb, q.nb, cellLevel);
    const [sl, su] = wilsonInterval(q.xs, q.ns, cellLevel);
    hi += Math.max(jsdBernoulli(bl, su), jsdBernoulli(bu, sl), jsdBernoulli(bl, sl), jsdBernoulli(bu, su));
    lo += bu < sl ? jsdBernoulli(bu, sl) : su < bl ? jsdBernoulli(su, bl) : 0;
  }
  return [lo / pairs.length, hi / pairs.length];
}

/**
 * The p-value of "R = 1" of a group of pairs whose G's sum to G, as `framingTest` gives it (the one
 * test the rows print and the audit's tipping point searches): χ²_k's where every pair's expected
 * counts are at least 5, otherwise the larger of χ²_k's and the exact conditional one.
 */
export function framingTestP(pairs: readonly PairCounts[], G: number): { p: number; method: 'chi2' | 'exact' } {
  const chi2 = chi2Sf(G, pairs.length);
  if (!isSparse(pairs)) return { p: chi2, method: 'chi2' };
  return { p: Math.max(chi2, exactConditionalP(pairs, G, gStatistic)), method: 'exact' };
}

/**
 * The combined G-test of a group of pairs (ΣG on k degrees of freedom: the G-test of framing ⟂
 * action within every pair), the bias-corrected mean JSD, and its interval: ΣG ~ χ²_k(Λ) with
 * Λ = Σ h_i JSD_i, the interval [Λ_lo, Λ_hi] for Λ, and the mean JSD in
 * [Λ_lo/(k·max h), Λ_hi/(k·min h)] (exact when every pair has the same h, conservative otherwise).
 */
export function framingTest(pairs: readonly FramingPairCounts[], level = 0.95): FramingTest {
  const k = pairs.length;
  let G = 0, corrected = 0, hMin = Infinity, hMax = 0;
  for (const q of pairs) {
    G += gStatistic(q.xb, q.nb, q.xs, q.ns);
    const h = jsdScale(q.nb, q.ns);
    corrected += q.jsd - 1 / h;
    hMin = Math.min(hMin, h); hMax = Math.max(hMax, h);
  }
  const { p, method } = framingTestP(pairs, G);
  const base = { G, df: k, p, pMethod: method, jsdCorrected: Math.max(0, corrected / k) };
  if (!(G > 0)) return { ...base, jsdInterval: rectangleInterval(pairs, 1 - 2 * (1 - level)), intervalMethod: 'rectangle' };
  // each end a one-sided bound at level: the lower end of Λ is > 0 exactly when the χ² p < 1 − level
  const [lo, hi] = noncentralityInterval(G, k, 1 - 2 * (1 - level));
  // the set of R the tests do not reject holds R = 1 (J = 0) whenever the test of R = 1 does not reject
  return { ...base, jsdInterval: [p < 1 - level ? lo / (k * hMax) : 0, hi / (k * hMin)], intervalMethod: 'inversion' };
}
