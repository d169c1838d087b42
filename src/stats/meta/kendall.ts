/**
 * Kendall's rank correlation of two samples with the p-value R's cor.test(method = "kendall",
 * exact = TRUE) gives (the test metafor's ranktest runs): without ties, the exact permutation
 * distribution of the number of concordant pairs T (the Mahonian numbers; P = min(1, 2·min(P(T ≤ q),
 * P(T ≥ q))) with q = round((τ + 1)n(n − 1)/4)); with ties, or above EXACT_MAX observations, the
 * normal approximation to S = Σ sign(xᵢ − xⱼ)·sign(yᵢ − yⱼ) with the tie-corrected variance
 * (Kendall 1970, ch. 4), without continuity correction. τ is τ_b.
 */
import { normalCdf } from '../normal.js';

/** The most observations for the exact distribution (O(n³) work); cor.test has no such limit. */
export const EXACT_MAX = 400;

export interface KendallTest {
  readonly tau: number;
  readonly p: number;
  /** Whether p is exact (no ties, n ≤ EXACT_MAX) or from the normal approximation. */
  readonly exact: boolean;
}

/** P(T ≤ q) for the number of concordant pairs of n exchangeable observations. */
function concordantCdf(q: number, n: number): number {
  const max = (n * (n - 1)) / 2;
  if (q < 0) return 0;
  if (q >= max) return 1;
  let f = new Float64Array(max + 1);
  f[0] = 1;
  for (let m = 2; m <= n; m++) {
    const top = (m * (m - 1)) / 2;
    const g = new Float64Array(max + 1);
    let window = 0;
    for (let t = 0; t <= top; t++) {
      window += f[t];
      if (t - m >= 0) window -= f[t - m];
      g[t] = window / m;
    }
    f = g;
  }
  let s = 0;
  for (let t = 0; t <= q; t++) s += f[t];
  return Math.min(1, s);
}

/** Sizes of the runs (2 or more) of values that `same` calls equal along `order` (sorted so that equal values are adjacent). */
function tieRuns(order: Uint32Array, same: (a: number, b: number) => boolean): number[] {
  const runs: number[] = [];
  let run = 1;
  for (let i = 1; i <= order.length; i++) {
    if (i < order.length && same(order[i - 1], order[i])) run++;
    else { if (run > 1) runs.push(run); run = 1; }
  }
  return runs;
}

const pairs = (runs: readonly number[]) => runs.reduce((s, t) => s + (t * (t - 1)) / 2, 0);

/**
 * S = Σ_{i<j} sign(xᵢ − xⱼ)·sign(yᵢ − yⱼ) in O(n log n) (Knight 1966, with ties as scipy's
 * kendalltau counts them): sorted by (x, y), S = n₀ − n₁ − n₂ + n₃ − 2·(the swaps a merge sort by
 * y makes), n₀ all pairs, n₁ and n₂ the pairs tied in x and in y, n₃ those tied in both. The same
 * walks give the sizes of the groups of ties in x and in y, which the test's variance needs.
 */
function kendallWalk(x: Float64Array, y: Float64Array): { S: number; tx: number[]; ty: number[] } {
  const n = x.length;
  let order = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a] - x[b] || y[a] - y[b]);
  const tx = tieRuns(order, (a, b) => x[a] === x[b]);
  const n3 = pairs(tieRuns(order, (a, b) => x[a] === x[b] && y[a] === y[b]));
  let swaps = 0;
  let buf = new Uint32Array(n);
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n), hi = Math.min(lo + 2 * width, n);
      let i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        if (y[order[j]] < y[order[i]]) { swaps += mid - i; buf[k++] = order[j++]; } else buf[k++] = order[i++];
      }
      while (i < mid) buf[k++] = order[i++];
      while (j < hi) buf[k++] = order[j++];
    }
    [order, buf] = [buf, order];
  }
  const ty = tieRuns(order, (a, b) => y[a] === y[b]);
  return { S: (n * (n - 1)) / 2 - pairs(tx) - pairs(ty) + n3 - 2 * swaps, tx, ty };
}

/** Kendall's S (see kendallWalk). */
export const kendallS = (x: Float64Array, y: Float64Array): number => kendallWalk(x, y).S;

export function kendallTest(x: Float64Array, y: Float64Array): KendallTest {
  const n = x.length;
  const { S, tx, ty } = kendallWalk(x, y);
  const T0 = (n * (n - 1)) / 2;
  const sum = (ts: number[], f: (t: number) => number) => ts.reduce((s, t) => s + f(t), 0);
  const T1 = pairs(tx);
  const T2 = pairs(ty);
  const tau = S / Math.sqrt((T0 - T1) * (T0 - T2));
  if (tx.length === 0 && ty.length === 0 && n <= EXACT_MAX) {
    const q = Math.round(((tau + 1) * n * (n - 1)) / 4);
    const p = q > (n * (n - 1)) / 4 ? 1 - concordantCdf(q - 1, n) : concordantCdf(q, n);
    return { tau, p: Math.min(1, 2 * p), exact: true };
  }
  const v0 = n * (n - 1) * (2 * n + 5);
  const vt = sum(tx, (t) => t * (t - 1) * (2 * t + 5));
  const vu = sum(ty, (t) => t * (t - 1) * (2 * t + 5));
  const v1 = sum(tx, (t) => t * (t - 1)) * sum(ty, (t) => t * (t - 1));
  const v2 = sum(tx, (t) => t * (t - 1) * (t - 2)) * sum(ty, (t) => t * (t - 1) * (t - 2));
  const varS = (v0 - vt - vu) / 18 + v1 / (2 * n * (n - 1)) + v2 / (9 * n * (n - 1) * (n - 2));
  const z = S / Math.sqrt(varS);
  return { tau, p: 2 * Math.min(normalCdf(z), normalCdf(-z)), exact: false };
}
