import { edgeGain, enumeratedGain, ENUMERATE_MAX, type PairCounts, type PairGain } from './order-gain.js';
import type { HeadlineKind, ReplicateState } from './replicate-state.js';

/**
 * Fewest single-count changes that reverse the order of two models by the point estimate of the
 * column that orders them (R; `kind`) (exact). R of a model is an increasing affine map
 * (attenuation a > 0) of the mean of its pairs' R2 (the column's conservative transform and
 * per-cell formula), and each pair's R2 depends on its own two cells only. Reversing "A ahead of B" needs
 *   Σ_{j∈A} (R2_j − R2'_j)/|A| + Σ_{j∈B} (R2'_j − R2_j)/|B| > R_A − R_B   (raw values).
 * For each pair, g_j(c) = the largest gain reachable with at most c changes in its two cells
 * (found by enumerating every table within L1 distance c); the best split of a total of c changes
 * across the pairs is a max-plus convolution of the g_j (a knapsack by dynamic programming), and
 * the smallest c whose best gain exceeds the gap is the exact minimum. The programme costs
 * O(pairs · c²): above EXACT_DP_MAX changes (large n) it runs on a grid of u counts per pair, and
 * the table it finds is an upper bound on the minimum (`unit` = u > 1).
 */
export interface OrderTipping {
  readonly ahead: string;
  readonly behind: string;
  /** Raw R gap R_A − R_B. */
  readonly gap: number;
  readonly changes?: number;
  readonly counts?: Int32Array;
  /** Grid unit of the dynamic programme: 1 when the minimum is exact; above 1 the changes are an upper bound. */
  readonly unit?: number;
}

/** Largest budget the dynamic programme covers count by count (O(pairs · budget²)); above it, on a grid. */
export const EXACT_DP_MAX = 2048;

/**
 * Gains already computed, by (pair, direction, weight, budget, grid unit): each model takes part in
 * one comparison per other model, with the same gains each time.
 */
export type GainCache = Map<string, PairGain>;

/**
 * Minimal changes for model `behind` to overtake model `ahead` (strictly), or none if impossible.
 * `cap`: the caller needs the answer only if it is at most this many changes (it holds a smaller
 * one from another comparison): the budget stops there, and nothing is returned beyond it.
 */
export function orderTipping(st: ReplicateState, kind: HeadlineKind, ahead: string, behind: string, cache: GainCache = new Map(),
  cap = Infinity): OrderTipping {
  const f = st.column(kind).cell;
  const rate = (i: number) => st.counts[i] / st.ns[i];
  const raw = (g: string) => st.groupPairs(g).reduce((s, j) => s + f(rate(st.layout.pairs[j].baseIndex), rate(st.layout.pairs[j].altIndex)), 0)
    / st.groupPairs(g).length;
  const gap = raw(ahead) - raw(behind);
  const A = st.groupPairs(ahead), B = st.groupPairs(behind);
  const maxCost = [...A, ...B].reduce((s, j) => s + st.ns[st.layout.pairs[j].baseIndex] + st.ns[st.layout.pairs[j].altIndex], 0);
  const counts = (j: number): PairCounts => {
    const { baseIndex: b, altIndex: s } = st.layout.pairs[j];
    return { b, s, nb: st.ns[b], ns: st.ns[s], x0b: st.counts[b], x0s: st.counts[s] };
  };
  const limit = Math.min(maxCost, cap);
  for (let cmax = Math.min(16, limit); ; cmax = Math.min(2 * cmax, limit)) {
    const u = cmax <= EXACT_DP_MAX ? 1 : Math.ceil(cmax / EXACT_DP_MAX);
    const gainOf = (j: number, sign: 1 | -1, w: number) => {
      const key = `${j}:${sign}:${w}:${cmax}:${u}`;
      let g = cache.get(key);
      if (!g) {
        g = cmax <= ENUMERATE_MAX ? enumeratedGain(counts(j), sign, w, cmax, f) : edgeGain(counts(j), sign, w, cmax, u, f);
        cache.set(key, g);
      }
      return g;
    };
    const gains = [...A.map((j) => gainOf(j, -1, 1 / A.length)), ...B.map((j) => gainOf(j, 1, 1 / B.length))];
    const m = gains[0].gain.length - 1;
    // F[k] = best total gain with at most k units over the pairs so far; choice[p][k] = units given to pair p.
    let F = new Float64Array(m + 1);
    const choice: Int32Array[] = [];
    for (const g of gains) {
      const next = new Float64Array(m + 1).fill(-Infinity);
      const ch = new Int32Array(m + 1);
      for (let c = 0; c <= m; c++) {
        for (let k = 0; k <= c; k++) {
          const v = F[c - k] + g.gain[k];
          if (v > next[c]) { next[c] = v; ch[c] = k; }
        }
      }
      F = next;
      choice.push(ch);
    }
    const c = F.findIndex((v) => v > gap);
    if (c >= 0) {
      const out = Int32Array.from(st.counts);
      let left = c;
      for (let k = gains.length - 1; k >= 0; k--) {
        const give = choice[k][left];
        out[gains[k].base] = gains[k].xb[give];
        out[gains[k].alt] = gains[k].xs[give];
        left -= give;
      }
      let changes = 0;
      for (let i = 0; i < out.length; i++) changes += Math.abs(out[i] - st.counts[i]);
      return { ahead, behind, gap, changes, counts: out, unit: u };
    }
    if (cmax >= limit) return { ahead, behind, gap };
  }
}
