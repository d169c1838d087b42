import { robustness2 } from '../../stats/jsd.js';
import type { ReplicateState } from './replicate-state.js';

/**
 * Fewest single-count changes that reverse the order of two models by their R point estimate
 * (exact). R of a model is an increasing affine map (attenuation a > 0) of the mean of its pairs'
 * R2, and each pair's R2 depends on its own two cells only. Reversing "A ahead of B" needs
 *   Σ_{j∈A} (R2_j − R2'_j)/|A| + Σ_{j∈B} (R2'_j − R2_j)/|B| > R_A − R_B   (raw values).
 * For each pair, g_j(c) = the largest gain reachable with at most c changes in its two cells
 * (found by enumerating every table within L1 distance c); the best split of a total of c changes
 * across the pairs is a max-plus convolution of the g_j (a knapsack by dynamic programming), and
 * the smallest c whose best gain exceeds the gap is the exact minimum.
 */
export interface OrderTipping {
  readonly ahead: string;
  readonly behind: string;
  /** Raw R gap R_A − R_B. */
  readonly gap: number;
  readonly changes?: number;
  readonly counts?: Int32Array;
}

interface PairGain { base: number; alt: number; gain: Float64Array; xb: Int32Array; xs: Int32Array }

function pairGain(st: ReplicateState, j: number, sign: 1 | -1, weight: number, cmax: number): PairGain {
  const { baseIndex: b, altIndex: s } = st.layout.pairs[j];
  const nb = st.ns[b], ns = st.ns[s], x0b = st.counts[b], x0s = st.counts[s];
  const r0 = robustness2(x0b / nb, x0s / ns);
  const gain = new Float64Array(cmax + 1).fill(-Infinity);
  const xb = new Int32Array(cmax + 1), xs = new Int32Array(cmax + 1);
  for (let db = Math.max(-x0b, -cmax); db <= Math.min(nb - x0b, cmax); db++) {
    const rest = cmax - Math.abs(db);
    for (let ds = Math.max(-x0s, -rest); ds <= Math.min(ns - x0s, rest); ds++) {
      const c = Math.abs(db) + Math.abs(ds);
      const g = weight * sign * (robustness2((x0b + db) / nb, (x0s + ds) / ns) - r0);
      if (g > gain[c]) { gain[c] = g; xb[c] = x0b + db; xs[c] = x0s + ds; }
    }
  }
  // At most c changes: running maximum (the cheaper table wins ties).
  for (let c = 1; c <= cmax; c++) if (!(gain[c] > gain[c - 1])) { gain[c] = gain[c - 1]; xb[c] = xb[c - 1]; xs[c] = xs[c - 1]; }
  return { base: b, alt: s, gain, xb, xs };
}

/** Minimal changes for model `behind` to overtake model `ahead` (strictly), or none if impossible. */
export function orderTipping(st: ReplicateState, ahead: string, behind: string): OrderTipping {
  const raw = (g: string) => {
    const ps = st.groupPairs(g);
    return ps.reduce((s, j) => { const p = st.layout.pairs[j]; return s + robustness2(st.counts[p.baseIndex] / st.ns[p.baseIndex], st.counts[p.altIndex] / st.ns[p.altIndex]); }, 0) / ps.length;
  };
  const gap = raw(ahead) - raw(behind);
  const A = st.groupPairs(ahead), B = st.groupPairs(behind);
  const maxCost = [...A, ...B].reduce((s, j) => s + st.ns[st.layout.pairs[j].baseIndex] + st.ns[st.layout.pairs[j].altIndex], 0);
  for (let cmax = 16; ; cmax = Math.min(2 * cmax, maxCost)) {
    const gains = [...A.map((j) => pairGain(st, j, -1, 1 / A.length, cmax)), ...B.map((j) => pairGain(st, j, 1, 1 / B.length, cmax))];
    // F[c] = best total gain with at most c changes over the pairs so far; choice[k][c] = c given to pair k.
    let F = new Float64Array(cmax + 1);
    const choice: Int32Array[] = [];
    for (const g of gains) {
      const next = new Float64Array(cmax + 1).fill(-Infinity);
      const ch = new Int32Array(cmax + 1);
      for (let c = 0; c <= cmax; c++) {
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
      const counts = Int32Array.from(st.counts);
      let left = c;
      for (let k = gains.length - 1; k >= 0; k--) {
        const give = choice[k][left];
        counts[gains[k].base] = gains[k].xb[give];
        counts[gains[k].alt] = gains[k].xs[give];
        left -= give;
      }
      let changes = 0;
      for (let i = 0; i < counts.length; i++) changes += Math.abs(counts[i] - st.counts[i]);
      return { ahead, behind, gap, changes, counts };
    }
    if (cmax >= maxCost) return { ahead, behind, gap };
  }
}
