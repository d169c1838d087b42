import type { BinaryObservations } from '../../core/cells.js';
import { cellId } from '../../core/cells.js';
import { chi2Quantile, chi2Sf } from '../../stats/chi2.js';
import { isSparse, smallestExpected, SPARSE_EXPECTED, type PairCounts as Counts } from '../../stats/framing-exact.js';
import { framingTestP, gStatistic } from '../../stats/framing-test.js';
import { FRAMING_TEST_ALPHA, type TwoFramingAnalysis } from '../two-framing/index.js';
import type { ReadingErrorResult } from './reading-error.js';

/**
 * The tipping point of "framing changes behaviour" read from the pooled R = 1 G-test as the rows
 * print it (docs/methods.md §8.5, §10.3: χ², or where a pair is sparse the larger of χ² and the
 * exact conditional p): the fewest single-count changes after which it no longer rejects. Under
 * χ², ΣG ≤ χ²_{k, 0.95}; ΣG is a sum of per-pair terms, so the minimum is exact on the counts: per
 * pair, the lowest G reachable with c changes (every split of c between its two cells), then a
 * min-plus convolution over the pairs. Where pairs are sparse, each total's lowest-ΣG table is
 * also put to the exact test (`minimalChanges`). No bootstrap is involved.
 */
export interface FramingTipping {
  readonly statement: string;
  readonly holds: boolean;
  readonly G: number;
  readonly df: number;
  readonly critical: number;
  /** The exact minimum number of count changes (at most that many with `atMost`); undefined when the conclusion does not hold or the search is too large. */
  readonly changes?: number;
  /** Present when a table within `changes` changes may have a sparse pair: another might overturn the exact test with fewer. */
  readonly atMost?: true;
  /** 'exact' when a pair of the observed table is sparse: the test is the larger of χ² and the exact conditional p, as the rows print. */
  readonly test?: 'exact';
  readonly cells: readonly { readonly cell: string; readonly from: number; readonly to: number }[];
  /** The lowest ΣG reading error can reach (each pair at its own minimum within the allowance), and whether that overturns it. */
  readonly readingError: { readonly minG: number; readonly overturned: boolean };
  readonly note?: string;
}

/** Largest total of changes the exact search considers (above it the count is not given). */
const MAX_CHANGES = 20_000;

interface PairCounts { readonly b: BinaryObservations; readonly s: BinaryObservations; readonly bi: number; readonly si: number }

/** A pair's counts after (db, ds) changes. */
const counts = (p: PairCounts, [db, ds]: readonly [number, number]): Counts => ({ xb: p.b.x + db, nb: p.b.n, xs: p.s.x + ds, ns: p.s.n });

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

/** Min-plus convolution of the pairs' gain tables: the lowest ΣG of each total of changes, and each pair's share of it. */
function convolve(tables: readonly number[][]): { f: number[]; choice: number[][] } {
  let f = tables[0].slice();
  const choice: number[][] = [tables[0].map((_, c) => c)];
  for (let i = 1; i < tables.length; i++) {
    const t = tables[i];
    const h = new Array<number>(f.length + t.length - 1).fill(Infinity);
    const ch = new Array<number>(h.length).fill(0);
    for (let a = 0; a < f.length; a++) for (let c = 0; c < t.length; c++) if (f[a] + t[c] < h[a + c]) { h[a + c] = f[a] + t[c]; ch[a + c] = c; }
    f = h; choice.push(ch);
  }
  return { f, choice };
}

/** Each pair's changes in the lowest-ΣG table of `total` changes. */
function split(choice: readonly number[][], total: number): number[] {
  const per = new Array<number>(choice.length);
  let left = total;
  for (let i = choice.length - 1; i > 0; i--) { per[i] = choice[i][left]; left -= per[i]; }
  per[0] = left;
  return per;
}

/**
 * The pooled test as the rows print it (framingTestP: χ², or where a pair is sparse the larger of χ²
 * and the exact conditional p) rejects: the searches' test with no limit on its work.
 */
const rejects = (q: readonly Counts[]): boolean => rejectsWithin(q, { left: Infinity }) === true;

/** Work (grid bins × outcomes of framing-exact.ts's convolution) one search's exact tests may take, about a second; past it counts are upper bounds. */
const EXACT_WORK = 3e8;

/**
 * The row's test on table q within the budget: χ² alone where it does not reject or no pair is
 * sparse; otherwise the exact test, its work taken from `budget` (undefined when it would exceed it).
 */
function rejectsWithin(q: readonly Counts[], budget: { left: number }): boolean | undefined {
  const G = q.reduce((t, c) => t + gStatistic(c.xb, c.nb, c.xs, c.ns), 0);
  if (!(chi2Sf(G, q.length) < FRAMING_TEST_ALPHA)) return false;
  if (!isSparse(q)) return true;
  const work = 1000 * q.length * q.reduce((t, c) => t + Math.min(c.nb, c.ns) + 1, 0);
  if (work > budget.left) return undefined;
  budget.left -= work;
  return framingTestP(q, G).p < FRAMING_TEST_ALPHA;
}

/**
 * The fewest changes after which the row's test no longer rejects: at each total, the lowest-ΣG table
 * (χ²'s minimum, exact on the counts) and, where a pair of it is sparse, the exact test on it. When
 * a table within that many changes may have a sparse pair (its expected count falls by at most 1/2
 * per change), another table might overturn the exact test sooner: every table of fewer changes is
 * then tried (`fewerByEnumeration`), and where they are too many the count is `atMost`.
 */
function minimalChanges(pairs: readonly PairCounts[], gains: readonly { g: number[]; move: [number, number][] }[], crit: number):
  { moves: [number, number][]; atMost: boolean } | undefined {
  const { f, choice } = convolve(gains.map((x) => x.g));
  const atTotal = (c: number): Counts[] => split(choice, c).map((k, i) => counts(pairs[i], gains[i].move[k]));
  const budget = { left: EXACT_WORK };
  let total = -1, spent = false;
  for (let c = 1; c < f.length && total < 0; c++) {
    if (f[c] <= crit) total = c;
    else if (!spent) { const r = rejectsWithin(atTotal(c), budget); if (r === undefined) spent = true; else if (!r) total = c; }
  }
  if (total < 0) return undefined;
  const smallest = Math.min(...pairs.map((p) => smallestExpected(counts(p, [0, 0]))));
  const moves = split(choice, total).map((k, i) => gains[i].move[k]);
  if (smallest - total / 2 >= SPARSE_EXPECTED) return { moves, atMost: false };
  const fewer = spent ? undefined : fewerByEnumeration(pairs, total, budget);
  return fewer === 'none' ? { moves, atMost: false } : fewer ? { moves: fewer, atMost: false } : { moves, atMost: true };
}

/** Most tables the enumeration below visits. */
const MAX_TABLES = 20_000;

/**
 * Every table within fewer than `total` changes, nearest first, put to the row's test: the first
 * it does not reject (or none: `total` is the minimum); undefined when there are more than MAX_TABLES
 * or their exact tests would take more than the budget.
 */
function fewerByEnumeration(pairs: readonly PairCounts[], total: number, budget: { left: number }): [number, number][] | 'none' | undefined {
  const x = pairs.flatMap((p) => [p.b.x, p.s.x]), n = pairs.flatMap((p) => [p.b.n, p.s.n]);
  let visited = 0;
  const at = x.slice();
  const visit = (i: number, left: number): number[] | undefined | null => {
    if (i === x.length) {
      if (left !== 0) return undefined;
      if (++visited > MAX_TABLES) return null;
      const q = pairs.map((_, k) => ({ xb: at[2 * k], nb: n[2 * k], xs: at[2 * k + 1], ns: n[2 * k + 1] }));
      const r = rejectsWithin(q, budget);
      return r === undefined ? null : r ? undefined : at.slice();
    }
    for (let d = -left; d <= left; d++) {
      if (x[i] + d < 0 || x[i] + d > n[i]) continue;
      at[i] = x[i] + d;
      const r = visit(i + 1, left - Math.abs(d));
      at[i] = x[i];
      if (r !== undefined) return r;
    }
    return undefined;
  };
  for (let d = 1; d < total; d++) {
    const found = visit(0, d);
    if (found === null) return undefined;
    if (found) return pairs.map((_, k): [number, number] => [found[2 * k] - x[2 * k], found[2 * k + 1] - x[2 * k + 1]]);
  }
  return 'none';
}

/** Each cell's reading-error allowance (down, up): none for a given count. */
function allowance(re: ReadingErrorResult, reconstructed: ArrayLike<boolean>, i: number): [number, number] {
  if (re.given) return [0, 0];
  if (re.perCell) return [re.perCell.down[i], re.perCell.up[i]];
  return reconstructed[i] ? [re.K, re.K] : [0, 0];
}

/** The lowest G of the pair within the reading-error allowance, and that table's counts. */
function readingMinG(p: PairCounts, re: ReadingErrorResult, reconstructed: ArrayLike<boolean>): { g: number; at: Counts } {
  const [bd, bu] = allowance(re, reconstructed, p.bi), [sd, su] = allowance(re, reconstructed, p.si);
  let best = Infinity, at = counts(p, [0, 0]);
  for (let xb = Math.max(0, p.b.x - bd); xb <= Math.min(p.b.n, p.b.x + bu); xb++) {
    for (let xs = Math.max(0, p.s.x - sd); xs <= Math.min(p.s.n, p.s.x + su); xs++) {
      const g = gStatistic(xb, p.b.n, xs, p.s.n);
      if (g < best) { best = g; at = { xb, nb: p.b.n, xs, ns: p.s.n }; }
    }
  }
  return { g: best, at };
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
  const observed = pairs.map((p) => counts(p, [0, 0]));
  const holds = rejects(observed), sparse = isSparse(observed);
  const reading = pairs.map((p) => readingMinG(p, re, reconstructed));
  const minG = reading.reduce((t, r) => t + r.g, 0);
  const base = { statement: 'framing changes behaviour (the pooled R = 1 G-test, p < 0.05)', holds, G, df, critical,
    readingError: { minG, overturned: holds && !rejects(reading.map((r) => r.at)) }, cells: [], ...(sparse ? { test: 'exact' as const } : {}) };
  if (!base.holds) return base;
  const bound = pairs.reduce((t, p) => t + pairCap(p), 0);
  if (bound > MAX_CHANGES) return { ...base, note: `more than ${MAX_CHANGES} count changes may be needed; not searched` };
  const gains = pairs.map(pairGains);
  const found = minimalChanges(pairs, gains, critical);
  if (!found) return base;
  const { moves, atMost } = found;
  const label = (i: number) => cellId(a.table.factors, a.table.cells[i].key).split('\u001f').map((kv) => kv.split('=').slice(1).join('=')).join(' / ');
  const cells = pairs.flatMap((p, i) => {
    const [db, ds] = moves[i];
    return [[p.bi, p.b.x, db], [p.si, p.s.x, ds]].filter(([, , d]) => d !== 0).map(([j, x, d]) => ({ cell: label(j), from: x, to: x + d }));
  });
  return { ...base, changes: moves.reduce((t, [db, ds]) => t + Math.abs(db) + Math.abs(ds), 0), cells, ...(atMost ? { atMost: true } : {}) };
}
