/**
 * The exact conditional null distribution of the summed G of a group of 2 × 2 tables (docs/methods.md
 * §8.5, "Sparse cells"): under equal rates in every pair, given each pair's margins (its trials n_b,
 * n_s and its total of cooperative decisions t), x_b is hypergeometric, and the pairs are
 * independent, so P(ΣG ≥ g) is a convolution of the pairs' discrete distributions of G. Where the χ²
 * approximation fails (expected counts below 5) it is anti-conservative: 0.086–0.092 at nominal
 * 0.05 with rates 0.005–0.02.
 */
import { logGamma } from './chi2.js';

/** Expected count below which a pair's χ² approximation is not trusted (Cochran 1954). */
export const SPARSE_EXPECTED = 5;

/** One pair's counts. */
export interface PairCounts { readonly xb: number; readonly nb: number; readonly xs: number; readonly ns: number }

/** The smallest expected count of the pair's 2 × 2 table under equal rates. */
export function smallestExpected(q: PairCounts): number {
  const N = q.nb + q.ns, t = q.xb + q.xs;
  return (Math.min(t, N - t) * Math.min(q.nb, q.ns)) / N;
}

/** True when some pair of the group has an expected count below SPARSE_EXPECTED. */
export const isSparse = (pairs: readonly PairCounts[]): boolean => pairs.some((q) => smallestExpected(q) < SPARSE_EXPECTED);

const logChoose = (n: number, k: number): number => logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);

/** Grid steps per pair between 0 and the observed ΣG: the p-value errs high by at most the mass of ΣG in [0.999·g, g). */
const STEPS_PER_PAIR = 1000;

/** One pair's outcomes under its margins: each table's hypergeometric weight and G's step on the grid; `most`, the largest step. */
interface Outcomes { readonly w: Float64Array; readonly step: Int32Array; readonly most: number }

function outcomesOf(q: PairCounts, delta: number, top: number, gOf: (xb: number, nb: number, xs: number, ns: number) => number): Outcomes {
  const N = q.nb + q.ns, t = q.xb + q.xs, norm = logChoose(N, t), w: number[] = [], step: number[] = [];
  let most = 0;
  for (let x = Math.max(0, t - q.ns); x <= Math.min(q.nb, t); x++) {
    const wx = Math.exp(logChoose(q.nb, x) + logChoose(q.ns, t - x) - norm);
    if (wx === 0) continue;
    const s = Math.min(top, Math.floor(gOf(x, q.nb, t - x, q.ns) / delta + 1e-9));
    w.push(wx); step.push(s); most = Math.max(most, s);
  }
  return { w: Float64Array.from(w), step: Int32Array.from(step), most };
}

/**
 * P(ΣG ≥ g | margins) under equal rates (G of a pair by `gOf`: framing-test.ts's gStatistic), from above: each pair's G is floored to a grid of step
 * δ = g/S, S = 1000·k, and ΣG ≥ g implies Σ⌊G_i/δ⌋ ≥ S − k + 1, so the probability of the latter,
 * computed exactly by convolution (every sum at or past it kept in one bin), is at least the
 * p-value and exceeds it only by configurations within k·δ of g. A partial sum that the largest
 * steps of the pairs still to come cannot lift to the top bin is dropped: it adds nothing to it
 * (the top bin's sum is that of the full convolution, term for term in the same order).
 */
export function exactConditionalP(pairs: readonly PairCounts[], g: number, gOf: (xb: number, nb: number, xs: number, ns: number) => number): number {
  if (!(g > 0)) return 1;
  const k = pairs.length, steps = STEPS_PER_PAIR * k, delta = g / steps, top = steps - k + 1;
  // A pair with one table (t = 0 or N, G = 0) leaves the distribution unchanged.
  const all = pairs.filter((q) => q.xb + q.xs !== 0 && q.xb + q.xs !== q.nb + q.ns).map((q) => outcomesOf(q, delta, top, gOf));
  const reach = new Int32Array(all.length + 1); // reach[i]: the largest sum of steps pairs i… can add
  for (let i = all.length - 1; i >= 0; i--) reach[i] = Math.min(top, reach[i + 1] + all[i].most);
  // The distribution over bins and its nonzero bins in the order first reached; the next pair's, and which bins it has reached.
  let mass = new Float64Array(top + 1), at = new Int32Array(top + 1), n = 1;
  let next = new Float64Array(top + 1), nextAt = new Int32Array(top + 1);
  const seen = new Uint8Array(top + 1);
  mass[0] = 1;
  for (let i = 0; i < all.length; i++) {
    const { w, step } = all[i], floor = top - reach[i + 1];
    let m = 0;
    for (let o = 0; o < w.length; o++) {
      const wo = w[o], so = step[o];
      for (let a = 0; a < n; a++) {
        const j = at[a], to = j + so < top ? j + so : top;
        if (to < floor) continue;
        if (seen[to] === 0) { seen[to] = 1; nextAt[m++] = to; }
        next[to] += wo * mass[j];
      }
    }
    for (let a = 0; a < n; a++) mass[at[a]] = 0;
    for (let a = 0; a < m; a++) seen[nextAt[a]] = 0;
    [mass, next, at, nextAt, n] = [next, mass, nextAt, at, m];
  }
  return Math.min(1, mass[top]);
}
