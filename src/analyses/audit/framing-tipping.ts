import type { BinaryObservations } from '../../core/cells.js';
import { cellId } from '../../core/cells.js';
import { chi2Quantile } from '../../stats/chi2.js';
import { gStatistic } from '../../stats/framing-test.js';
import type { TwoFramingAnalysis } from '../two-framing/index.js';
import type { ReadingErrorResult } from './reading-error.js';

/**
 * The tipping point of "framing changes behaviour" read from the pooled R = 1 G-test
 * (docs/methods.md §8.5, §10.3): the fewest single-count changes that make ΣG ≤ χ²_{k, 0.95}.
 * ΣG is a sum of per-pair terms, so the minimum is exact on the counts: per pair, the lowest G
 * reachable with c changes (every split of c between its two cells), then a min-plus
 * convolution over the pairs. No bootstrap is involved.
 */
export interface FramingTipping {
  readonly statement: string;
  readonly holds: boolean;
  readonly G: number;
  readonly df: number;
  readonly critical: number;
  /** The exact minimum number of count changes; undefined when the conclusion does not hold or the search is too large. */
  readonly changes?: number;
  readonly cells: readonly { readonly cell: string; readonly from: number; readonly to: number }[];
  /** The lowest ΣG reading error can reach (each pair at its own minimum within the allowance), and whether that overturns it. */
  readonly readingError: { readonly minG: number; readonly overturned: boolean };
  readonly note?: string;
}

/** Largest total of changes the exact search considers (above it the count is not given). */
const MAX_CHANGES = 20_000;

interface PairCounts { readonly b: BinaryObservations; readonly s: BinaryObservations; readonly bi: number; readonly si: number }

/** Changes that make a pair's rates equal, or nearly: no minimum moves a pair further. */
const pairCap = (p: PairCounts) => Math.ceil(Math.abs(p.b.x / p.b.n - p.s.x / p.s.n) * Math.max(p.b.n, p.s.n)) + 2;

/** g[c] = the lowest G of the pair with exactly c changes (db, ds) = move[c], c = 0 … until G = 0 or the pair's cap. */
function pairGains(p: PairCounts): { g: number[]; move: [number, number][] } {
  const { b, s } = p;
  const g: number[] = [gStatistic(b.x, b.n, s.x, s.n)];
  const move: [number, number][] = [[0, 0]];
  for (let c = 1; g[c - 1] > 1e-12 && c <= Math.min(b.n + s.n, pairCap(p)); c++) {
    let best = Infinity, arg: [number, number] = [0, 0];
    for (let db = -c; db <= c; db++) {
      const xb = b.x + db;
      if (xb < 0 || xb > b.n) continue;
      for (const ds of c === Math.abs(db) ? [0] : [c - Math.abs(db), Math.abs(db) - c]) {
        const xs = s.x + ds;
        if (xs < 0 || xs > s.n) continue;
        const v = gStatistic(xb, b.n, xs, s.n);
        if (v < best) { best = v; arg = [db, ds]; }
      }
    }
    g.push(best); move.push(arg);
  }
  return { g, move };
}

/** Min-plus convolution of the pairs' gain tables; the smallest total with ΣG ≤ crit and the changes per pair. */
function minimalChanges(tables: readonly number[][], crit: number): number[] | undefined {
  let f = tables[0].slice();
  const choice: number[][] = [tables[0].map((_, c) => c)];
  for (let i = 1; i < tables.length; i++) {
    const t = tables[i];
    const h = new Array<number>(f.length + t.length - 1).fill(Infinity);
    const ch = new Array<number>(h.length).fill(0);
    for (let a = 0; a < f.length; a++) for (let c = 0; c < t.length; c++) if (f[a] + t[c] < h[a + c]) { h[a + c] = f[a] + t[c]; ch[a + c] = c; }
    f = h; choice.push(ch);
  }
  const total = f.findIndex((v) => v <= crit);
  if (total < 0) return undefined;
  const per = new Array<number>(tables.length);
  let left = total;
  for (let i = tables.length - 1; i > 0; i--) { per[i] = choice[i][left]; left -= per[i]; }
  per[0] = left;
  return per;
}

/** Each cell's reading-error allowance (down, up): none for a given count. */
function allowance(re: ReadingErrorResult, reconstructed: ArrayLike<boolean>, i: number): [number, number] {
  if (re.given) return [0, 0];
  if (re.perCell) return [re.perCell.down[i], re.perCell.up[i]];
  return reconstructed[i] ? [re.K, re.K] : [0, 0];
}

function readingMinG(p: PairCounts, re: ReadingErrorResult, reconstructed: ArrayLike<boolean>): number {
  const [bd, bu] = allowance(re, reconstructed, p.bi), [sd, su] = allowance(re, reconstructed, p.si);
  let best = Infinity;
  for (let xb = Math.max(0, p.b.x - bd); xb <= Math.min(p.b.n, p.b.x + bu); xb++) {
    for (let xs = Math.max(0, p.s.x - sd); xs <= Math.min(p.s.n, p.s.x + su); xs++) best = Math.min(best, gStatistic(xb, p.b.n, xs, p.s.n));
  }
  return best;
}

/** The tipping point of the pooled R = 1 test; undefined when the cells are not counts. */
export function framingTipping(a: TwoFramingAnalysis, re: ReadingErrorResult, reconstructed: ArrayLike<boolean>): FramingTipping | undefined {
  const pairs: PairCounts[] = [];
  for (const p of a.layout.pairs) {
    const b = a.table.cells[p.baseIndex].obs, s = a.table.cells[p.altIndex].obs;
    if (b.kind !== 'binary' || s.kind !== 'binary') return undefined;
    pairs.push({ b, s, bi: p.baseIndex, si: p.altIndex });
  }
  const df = pairs.length, critical = chi2Quantile(0.95, df);
  const G = pairs.reduce((t, p) => t + gStatistic(p.b.x, p.b.n, p.s.x, p.s.n), 0);
  const minG = pairs.reduce((t, p) => t + readingMinG(p, re, reconstructed), 0);
  const base = { statement: 'framing changes behaviour (the pooled R = 1 G-test, p < 0.05)', holds: G > critical, G, df, critical,
    readingError: { minG, overturned: G > critical && minG <= critical }, cells: [] };
  if (!base.holds) return base;
  const bound = pairs.reduce((t, p) => t + pairCap(p), 0);
  if (bound > MAX_CHANGES) return { ...base, note: `more than ${MAX_CHANGES} count changes may be needed; not searched` };
  const gains = pairs.map(pairGains);
  const per = minimalChanges(gains.map((x) => x.g), critical);
  if (!per) return base;
  const label = (i: number) => cellId(a.table.factors, a.table.cells[i].key).split('\u001f').map((kv) => kv.split('=').slice(1).join('=')).join(' / ');
  const cells = pairs.flatMap((p, i) => {
    const [db, ds] = gains[i].move[per[i]];
    return [[p.bi, p.b.x, db], [p.si, p.s.x, ds]].filter(([, , d]) => d !== 0).map(([j, x, d]) => ({ cell: label(j), from: x, to: x + d }));
  });
  return { ...base, changes: per.reduce((t, c) => t + c, 0), cells };
}
