import { POOLED } from '../../core/names.js';
import { auditedColumns } from '../../stats/table3.js';
import type { HeadlineKind, ReplicateState } from './replicate-state.js';

/**
 * Reading error: every reconstructed count may be off by up to ±K (K = 1 is about one pixel on a
 * 300-pixel axis for n = 300, where one count is 1/300 of the bar height). For each headline
 * statistic — per-model and pooled, each audited Table 3 column (R, shift, …), point and interval
 * endpoints — the range over all tables within ±K of the observed one (counts clamped to [0, n]).
 *
 * How the extremes are found:
 * - point of a column whose formula is monotone (the shift, linear in the counts): the
 *   coordinate-wise extreme (every alt cell +K and base cell −K, or the reverse) is the exact extreme.
 * - point of another column (R): a mean of pair terms cell(p_base, p_alt), each depending on its
 *   own two cells only, so the extreme of the mean is the mean of per-pair extremes; each pair's
 *   extreme is found by enumerating its (2K+1)² neighbours. Exact.
 * - interval endpoints: the bootstrap percentile of a changed table has no closed form; a
 *   coordinate search starts at the point-extremal table and moves one cell at a time within
 *   ±K while the endpoint improves. The value it reports is attained by a table within ±K, so the
 *   true range is at least as wide (an inner bound), not proven to be the extreme.
 */
export interface CellChange { readonly index: number; readonly cell: string; readonly from: number; readonly to: number }

export type Which = 'point' | 'lo' | 'hi';

export interface ReadingErrorRange {
  readonly group: string;
  readonly kind: HeadlineKind;
  readonly which: Which;
  readonly observed: number;
  readonly min: number;
  readonly max: number;
  /** True when min and max are the exact extremes; false for a search's inner bound. */
  readonly exact: boolean;
  readonly argmin: readonly CellChange[];
  readonly argmax: readonly CellChange[];
}

/**
 * Reading error per cell, when each count has its own range (a digitized figure: the counts at
 * ±K px of each click along the value axis, reports/digitization.csv): how far each count may go
 * down and up. Given instead of ±K counts, it replaces K in every search and budget.
 */
export interface ReadingRanges {
  /** K in pixels. */
  readonly K: number;
  /** How the reading error is stated ("±1 px of the digitized figure"). */
  readonly label: string;
  readonly down: readonly number[];
  readonly up: readonly number[];
  /** The input flags that regenerate the audit (the digitized project, its layout, the pixel error). */
  readonly input: Readonly<Record<string, string | number>>;
  /** What else bears on the reading (the calibration clicks' sensitivity), said beside the ranges. */
  readonly notes?: readonly string[];
}

export interface ReadingErrorResult {
  /** K: counts (±K counts per cell), or pixels when `perCell` gives each cell's range. */
  readonly K: number;
  /** How the reading error is stated: "±K" counts, or "±K px of the digitized figure". */
  readonly label: string;
  /** Each cell's allowance down and up (0 for a given count), when the ranges are per cell. */
  readonly perCell?: { readonly down: readonly number[]; readonly up: readonly number[] };
  /** Notes of the per-cell ranges (the calibration clicks' sensitivity). */
  readonly notes?: readonly string[];
  /** Cells whose counts were reconstructed from rates: only these may be misread (±K); given counts stay. */
  readonly reconstructedCells: number;
  /** True when every count was given (observed counts): there is no reading error, and no ranges. */
  readonly given: boolean;
  readonly ranges: readonly ReadingErrorRange[];
  readonly evaluations: number;
}

const MAX_SWEEPS = 4;

export function changesOf(state: ReplicateState, observed: ArrayLike<number>, counts: ArrayLike<number>): CellChange[] {
  const out: CellChange[] = [];
  for (let i = 0; i < counts.length; i++) {
    if (counts[i] !== observed[i]) out.push({ index: i, cell: cellLabel(state, i), from: observed[i], to: counts[i] });
  }
  return out;
}

export function cellLabel(state: ReplicateState, i: number): string {
  const k = state.table.cells[i].key;
  return `${k.model} / ${k.game} / ${k.framing}`;
}

/**
 * The count offsets (db, ds) of a pair whose counts stay in [0, n], ordered by their number of
 * changes |db| + |ds| (ties: db, then ds ascending). Only feasible tables are listed, so the work
 * is bounded by the table ((n_b + 1)(n_s + 1) at most), whatever K.
 */
function* offsetsByCost(b: { lo: number; hi: number }, s: { lo: number; hi: number }): Generator<[number, number]> {
  const maxCost = Math.max(-b.lo, b.hi) + Math.max(-s.lo, s.hi);
  for (let c = 0; c <= maxCost; c++) {
    for (let db = Math.max(b.lo, -c); db <= Math.min(b.hi, c); db++) {
      const r = c - Math.abs(db);
      if (-r >= s.lo && -r <= s.hi) yield [db, -r];
      if (r !== 0 && r >= s.lo && r <= s.hi) yield [db, r];
    }
  }
}

/**
 * Reading error per cell: one K for every cell, a bound per cell (0 for a given count), or how far
 * each cell may move down and up (a digitized figure's count ranges).
 */
export type ReadingBound = number | ArrayLike<number> | { readonly down: ArrayLike<number>; readonly up: ArrayLike<number> };
const isSplit = (K: ReadingBound): K is { readonly down: ArrayLike<number>; readonly up: ArrayLike<number> } => typeof K === 'object' && 'down' in K;
const downAt = (K: ReadingBound, i: number): number => (typeof K === 'number' ? K : isSplit(K) ? K.down[i] : K[i]);
const upAt = (K: ReadingBound, i: number): number => (typeof K === 'number' ? K : isSplit(K) ? K.up[i] : K[i]);

/** The table within ±K that makes a group's point statistic largest (dir = 1) or smallest (−1). */
export function pointExtremeCounts(state: ReplicateState, observed: ArrayLike<number>, K: ReadingBound, group: string,
  kind: HeadlineKind, dir: 1 | -1): Int32Array {
  const counts = Int32Array.from(observed);
  const clamp = (i: number, x: number) => Math.max(0, Math.min(state.ns[i], x));
  const { cell, audit } = state.column(kind);
  for (const j of state.groupPairs(group)) {
    const { baseIndex: b, altIndex: s } = state.layout.pairs[j];
    if (audit?.monotone) {
      counts[b] = clamp(b, dir > 0 ? observed[b] - downAt(K, b) : observed[b] + upAt(K, b));
      counts[s] = clamp(s, dir > 0 ? observed[s] + upAt(K, s) : observed[s] - downAt(K, s));
      continue;
    }
    // Offsets in order of their number of changes, so that among equal values the table
    // closest to the observed one wins (no change reported that does nothing).
    let best = -Infinity;
    const box = (i: number) => ({ lo: Math.max(-downAt(K, i), -observed[i]), hi: Math.min(upAt(K, i), state.ns[i] - observed[i]) });
    for (const [db, ds] of offsetsByCost(box(b), box(s))) {
      const xb = observed[b] + db, xs = observed[s] + ds;
      const v = dir * cell(xb / state.ns[b], xs / state.ns[s]);
      if (v > best + 1e-15) { best = v; counts[b] = xb; counts[s] = xs; }
    }
  }
  return counts;
}

function read(state: ReplicateState, group: string, kind: HeadlineKind, which: Which): number {
  return which === 'point' ? state.point(group, kind) : state.endpoint(group, kind, which);
}

/** Coordinate search within ±K of `observed` for the extreme of one endpoint; leaves the state at `observed`. */
function searchEndpoint(state: ReplicateState, observed: ArrayLike<number>, K: ReadingBound, group: string, kind: HeadlineKind,
  which: Which, dir: 1 | -1, tally: { n: number }): { value: number; counts: Int32Array } {
  state.setCounts(pointExtremeCounts(state, observed, K, group, kind, dir));
  let best = read(state, group, kind, which);
  tally.n++;
  const scope = state.scopeCells(group);
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    let improved = false;
    for (const i of scope) {
      const keep = state.counts[i];
      let bestX = keep, bestSeen = best;
      // Candidates are compared in scan mode; the chosen count's value is then read exactly.
      state.scan(() => {
        for (let x = Math.max(0, observed[i] - downAt(K, i)); x <= Math.min(state.ns[i], observed[i] + upAt(K, i)); x++) {
          if (x === keep) continue;
          state.setCount(i, x);
          const v = read(state, group, kind, which);
          tally.n++;
          if (dir * (v - bestSeen) > 1e-15) { bestSeen = v; bestX = x; improved = true; }
        }
      });
      state.setCount(i, bestX);
      if (bestX !== keep) best = read(state, group, kind, which);
    }
    if (!improved) break;
  }
  const counts = Int32Array.from(state.counts);
  state.setCounts(observed);
  return { value: best, counts };
}

/**
 * The reconstructed cells' bound: K for each cell that may have been misread, 0 for a given count;
 * with per-cell ranges, each reconstructed cell's own allowance down and up.
 */
export function readingBounds(k: number, K: number, reconstructed?: ArrayLike<boolean>, ranges?: Pick<ReadingRanges, 'down' | 'up'>): { down: Int32Array;
  up: Int32Array } {
  const moves = (i: number) => reconstructed === undefined || reconstructed[i];
  if (ranges) {
    if (ranges.down.length !== k || ranges.up.length !== k) throw new RangeError(`per-cell ranges for ${ranges.down.length} cells, the table has ${k}`);
    const of = (a: readonly number[]) => Int32Array.from({ length: k }, (_, i) => {
      if (!Number.isInteger(a[i]) || a[i] < 0) throw new RangeError(`a cell's range must be a non-negative integer: ${a[i]}`);
      return moves(i) ? a[i] : 0;
    });
    return { down: of(ranges.down), up: of(ranges.up) };
  }
  if (!Number.isInteger(K) || K < 0) throw new RangeError(`K must be a non-negative integer: ${K}`);
  const b = Int32Array.from({ length: k }, (_, i) => (moves(i) ? K : 0));
  return { down: b, up: b };
}

/** "±K" counts, or the ranges' own statement. */
export const readingLabel = (K: number, ranges?: Pick<ReadingRanges, 'label'>): string => ranges?.label ?? `±${K}`;

/** Cells reconstructed from rates among k (all, when no mask is given): 0 means every count was given. */
export function reconstructedCount(k: number, reconstructed?: ArrayLike<boolean>): number {
  return reconstructed === undefined ? k : Array.from(reconstructed).filter(Boolean).length;
}

/**
 * The range of one headline statistic (group, kind, which) over the tables within `bound` of
 * `observed`; leaves the state at `observed`. A pure function of its arguments: the ranges of
 * different statistics may be computed in any order, on any thread.
 */
export function readingErrorRange(state: ReplicateState, observed: Int32Array, bound: ReadingBound, group: string,
  kind: HeadlineKind, which: Which, tally: { n: number }): ReadingErrorRange {
  const observedValue = read(state, group, kind, which);
  let lo: { value: number; counts: Int32Array }, hi: { value: number; counts: Int32Array };
  if (which === 'point') {
    const cMin = pointExtremeCounts(state, observed, bound, group, kind, -1);
    const cMax = pointExtremeCounts(state, observed, bound, group, kind, 1);
    state.setCounts(cMin); lo = { value: state.point(group, kind), counts: cMin };
    state.setCounts(cMax); hi = { value: state.point(group, kind), counts: cMax };
    state.setCounts(observed);
    tally.n += 2;
  } else {
    lo = searchEndpoint(state, observed, bound, group, kind, which, -1, tally);
    hi = searchEndpoint(state, observed, bound, group, kind, which, 1, tally);
  }
  // The observed table is itself within ±K: keep it when the search did no better.
  if (observedValue < lo.value) lo = { value: observedValue, counts: observed };
  if (observedValue > hi.value) hi = { value: observedValue, counts: observed };
  return {
    group, kind, which, observed: observedValue,
    min: lo.value, max: hi.value, exact: which === 'point',
    argmin: changesOf(state, observed, lo.counts), argmax: changesOf(state, observed, hi.counts),
  };
}

/** The statistics whose ranges the reading-error analysis reports, in report order: per group, each audited column (`kinds`). */
export function readingErrorStatistics(models: readonly string[],
  kinds: readonly HeadlineKind[] = auditedColumns().map((c) => c.column)): { group: string; kind: HeadlineKind; which: Which }[] {
  const whiches: Which[] = ['point', 'lo', 'hi'];
  return [...models, POOLED].flatMap((group) => kinds.flatMap((kind) => whiches.map((which) => ({ group, kind, which }))));
}

/** A range with the evaluations its search took. */
export interface RangeFound { readonly range: ReadingErrorRange; readonly evaluations: number }

/**
 * The reading-error result of k cells from the range of each statistic of readingErrorStatistics,
 * in its order (`found`, called only when some cell was reconstructed: when none was, the counts
 * were given and there is nothing to analyse, no ranges).
 */
export function readingErrorResult(K: number, k: number, reconstructed: ArrayLike<boolean> | undefined,
  found: () => readonly RangeFound[], ranges?: ReadingRanges): ReadingErrorResult {
  const reconstructedCells = reconstructedCount(k, reconstructed);
  const label = readingLabel(K, ranges);
  const own = ranges ? {
    K: ranges.K, label, perCell: (({ down, up }) => ({ down: Array.from(down), up: Array.from(up) }))(readingBounds(k, K, reconstructed, ranges)),
    ...(ranges.notes ? { notes: ranges.notes } : {}),
  } : { K, label };
  if (reconstructedCells === 0) return { ...own, reconstructedCells, given: true, ranges: [], evaluations: 0 };
  const all = found();
  return { ...own, reconstructedCells, given: false, ranges: all.map((f) => f.range), evaluations: all.reduce((n, f) => n + f.evaluations, 0) };
}

/**
 * Ranges of every headline statistic under reading error ±K (see the module comment), one after
 * another on this state. Only the cells marked reconstructed may move (all, when no mask is given).
 */
export function readingErrorRanges(state: ReplicateState, K: number, reconstructed?: ArrayLike<boolean>, ranges?: ReadingRanges): ReadingErrorResult {
  const bound = readingBounds(state.counts.length, K, reconstructed, ranges);
  const observed = Int32Array.from(state.counts);
  return readingErrorResult(K, state.counts.length, reconstructed, () => readingErrorStatistics(state.layout.models,
    state.columns.map((c) => c.column)).map(({ group, kind, which }) => {
    const tally = { n: 0 };
    return { range: readingErrorRange(state, observed, bound, group, kind, which, tally), evaluations: tally.n };
  }), ranges);
}
