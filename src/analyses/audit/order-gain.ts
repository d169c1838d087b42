/** A Table 3 column's per-cell formula of the two rates (R2 for the ordering by R). */
export type CellFormula = (pBase: number, pAlt: number) => number;

/**
 * g(c): the largest gain weight·sign·(f(x_b + d_b, x_s + d_s) − f(x_b, x_s)) of a column's per-cell
 * formula f (R2; it must be concave, see below) a pair can reach
 * with at most c single-count changes (|d_b| + |d_s| ≤ c, counts within [0, n]), and the counts
 * that reach it — for every c up to cmax, or for every multiple of a grid unit.
 *
 * Small budgets enumerate every table within L1 distance cmax. Large budgets use the shape of
 * R2 = 1 − JSD/ln 2 (what a column that orders the models declares of its formula): JSD is jointly
 * convex in the two rates (an f-divergence), so on each of the
 * four edges of the set |d_b| + |d_s| = c (clipped to the count ranges) R2 is concave. Lowering R2
 * (sign −1) is maximizing a convex function: an edge's best is one of its two ends. Raising it
 * (sign +1) is maximizing a concave function of one integer: a ternary search on each edge. Both
 * are exact on the integer tables at cost O(log c) per c rather than O(c).
 */
export interface PairGain { readonly base: number; readonly alt: number; readonly gain: Float64Array; readonly xb: Int32Array; readonly xs: Int32Array }

export interface PairCounts { readonly b: number; readonly s: number; readonly nb: number; readonly ns: number; readonly x0b: number; readonly x0s: number }

/** Largest cmax whose tables are enumerated ((cmax + 1)² ≈ 66,000 evaluations per pair). */
export const ENUMERATE_MAX = 256;

/** g(c) for c = 0 … cmax by enumeration. */
export function enumeratedGain(p: PairCounts, sign: 1 | -1, weight: number, cmax: number, f: CellFormula): PairGain {
  const { nb, ns, x0b, x0s } = p;
  const r0 = f(x0b / nb, x0s / ns);
  const gain = new Float64Array(cmax + 1).fill(-Infinity);
  const xb = new Int32Array(cmax + 1), xs = new Int32Array(cmax + 1);
  for (let db = Math.max(-x0b, -cmax); db <= Math.min(nb - x0b, cmax); db++) {
    const rest = cmax - Math.abs(db);
    for (let ds = Math.max(-x0s, -rest); ds <= Math.min(ns - x0s, rest); ds++) {
      const c = Math.abs(db) + Math.abs(ds);
      const g = weight * sign * (f((x0b + db) / nb, (x0s + ds) / ns) - r0);
      if (g > gain[c]) { gain[c] = g; xb[c] = x0b + db; xs[c] = x0s + ds; }
    }
  }
  runningMax(gain, xb, xs);
  return { base: p.b, alt: p.s, gain, xb, xs };
}

/** g at c = 0, u, 2u, … (index k holds c = k·u) from the best table on each edge of |d| = c. */
export function edgeGain(p: PairCounts, sign: 1 | -1, weight: number, cmax: number, u: number, f: CellFormula): PairGain {
  const { nb, ns, x0b, x0s } = p;
  const r0 = f(x0b / nb, x0s / ns);
  const value = (db: number, ds: number) => weight * sign * (f((x0b + db) / nb, (x0s + ds) / ns) - r0);
  const m = Math.floor(cmax / u);
  const gain = new Float64Array(m + 1).fill(-Infinity);
  const xb = new Int32Array(m + 1), xs = new Int32Array(m + 1);
  gain[0] = 0; xb[0] = x0b; xs[0] = x0s;
  for (let k = 1; k <= m; k++) {
    const c = k * u;
    for (const sb of [1, -1]) for (const ss of [1, -1]) {
      // d_b = sb·t, d_s = ss·(c − t), t in [0, c], counts within [0, n].
      const bMax = sb > 0 ? nb - x0b : x0b, sMax = ss > 0 ? ns - x0s : x0s;
      const lo = Math.max(0, c - sMax), hi = Math.min(c, bMax);
      if (lo > hi) continue;
      const at = (t: number) => value(sb * t, ss * (c - t));
      const t = sign < 0 ? (at(lo) >= at(hi) ? lo : hi) : concaveArgmax(at, lo, hi);
      const g = at(t);
      if (g > gain[k]) { gain[k] = g; xb[k] = x0b + sb * t; xs[k] = x0s + ss * (c - t); }
    }
  }
  runningMax(gain, xb, xs);
  return { base: p.b, alt: p.s, gain, xb, xs };
}

/** Argmax of a concave function of an integer on [lo, hi] (ternary search; the lower end on ties). */
function concaveArgmax(f: (t: number) => number, lo: number, hi: number): number {
  while (hi - lo > 2) {
    const m1 = lo + Math.floor((hi - lo) / 3), m2 = hi - Math.floor((hi - lo) / 3);
    const f1 = f(m1), f2 = f(m2);
    if (f1 < f2) lo = m1 + 1;
    else if (f1 > f2) hi = m2 - 1;
    else { lo = m1; hi = m2; if (hi - lo <= 2) break; }
  }
  let best = lo;
  for (let t = lo + 1; t <= hi; t++) if (f(t) > f(best)) best = t;
  return best;
}

/** At most c changes: each entry the best so far (the cheaper table wins ties). */
function runningMax(gain: Float64Array, xb: Int32Array, xs: Int32Array): void {
  for (let c = 1; c < gain.length; c++) if (!(gain[c] > gain[c - 1])) { gain[c] = gain[c - 1]; xb[c] = xb[c - 1]; xs[c] = xs[c - 1]; }
}
