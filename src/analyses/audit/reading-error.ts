import { POOLED } from '../../core/names.js';
import { robustness2 } from '../../stats/jsd.js';
import type { HeadlineKind, ReplicateState } from './replicate-state.js';

/**
 * Reading error: every reconstructed count may be off by up to ±K (K = 1 is about one pixel on a
 * 300-pixel axis for n = 300, where one count is 1/300 of the bar height). For each headline
 * statistic — per-model and pooled R and shift, point and interval endpoints — the range over all
 * tables within ±K of the observed one (counts clamped to [0, n]).
 *
 * How the extremes are found:
 * - shift point: linear in the counts, so the coordinate-wise extreme (every alt cell +K and base
 *   cell −K, or the reverse) is the exact extreme.
 * - R point: a mean of pair terms R2(p_base, p_alt), each depending on its own two cells only, so
 *   the extreme of the mean is the mean of per-pair extremes; each pair's extreme is found by
 *   enumerating its (2K+1)² neighbours. Exact.
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

export interface ReadingErrorResult {
  readonly K: number;
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

/** Reading error per cell: one K for every cell, or a bound per cell (0 for a given count). */
export type ReadingBound = number | ArrayLike<number>;
const kAt = (K: ReadingBound, i: number): number => (typeof K === 'number' ? K : K[i]);

/** The table within ±K that makes a group's point statistic largest (dir = 1) or smallest (−1). */
export function pointExtremeCounts(state: ReplicateState, observed: ArrayLike<number>, K: ReadingBound, group: string,
  kind: HeadlineKind, dir: 1 | -1): Int32Array {
  const counts = Int32Array.from(observed);
  const clamp = (i: number, x: number) => Math.max(0, Math.min(state.ns[i], x));
  for (const j of state.groupPairs(group)) {
    const { baseIndex: b, altIndex: s } = state.layout.pairs[j];
    if (kind === 'shift') {
      counts[b] = clamp(b, observed[b] - dir * kAt(K, b));
      counts[s] = clamp(s, observed[s] + dir * kAt(K, s));
      continue;
    }
    // Offsets in order of their number of changes, so that among equal values the table
    // closest to the observed one wins (no change reported that does nothing).
    let best = -Infinity;
    const box = (i: number) => ({ lo: Math.max(-kAt(K, i), -observed[i]), hi: Math.min(kAt(K, i), state.ns[i] - observed[i]) });
    for (const [db, ds] of offsetsByCost(box(b), box(s))) {
      const xb = observed[b] + db, xs = observed[s] + ds;
      const v = dir * robustness2(xb / state.ns[b], xs / state.ns[s]);
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
        for (let x = Math.max(0, observed[i] - kAt(K, i)); x <= Math.min(state.ns[i], observed[i] + kAt(K, i)); x++) {
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

/** The reconstructed cells' bound: K for each cell that may have been misread, 0 for a given count. */
export function readingBounds(k: number, K: number, reconstructed?: ArrayLike<boolean>): Int32Array {
  if (!Number.isInteger(K) || K < 0) throw new RangeError(`K must be a non-negative integer: ${K}`);
  return Int32Array.from({ length: k }, (_, i) => (reconstructed === undefined || reconstructed[i] ? K : 0));
}

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

/** The statistics whose ranges the reading-error analysis reports, in report order. */
export function readingErrorStatistics(models: readonly string[]): { group: string; kind: HeadlineKind; which: Which }[] {
  const kinds: HeadlineKind[] = ['R', 'shift'];
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
  found: () => readonly RangeFound[]): ReadingErrorResult {
  const reconstructedCells = reconstructedCount(k, reconstructed);
  if (reconstructedCells === 0) return { K, reconstructedCells, given: true, ranges: [], evaluations: 0 };
  const all = found();
  return { K, reconstructedCells, given: false, ranges: all.map((f) => f.range), evaluations: all.reduce((n, f) => n + f.evaluations, 0) };
}

/**
 * Ranges of every headline statistic under reading error ±K (see the module comment), one after
 * another on this state. Only the cells marked reconstructed may move (all, when no mask is given).
 */
export function readingErrorRanges(state: ReplicateState, K: number, reconstructed?: ArrayLike<boolean>): ReadingErrorResult {
  const bound = readingBounds(state.counts.length, K, reconstructed);
  const observed = Int32Array.from(state.counts);
  return readingErrorResult(K, state.counts.length, reconstructed, () => readingErrorStatistics(state.layout.models).map(({ group, kind, which }) => {
    const tally = { n: 0 };
    return { range: readingErrorRange(state, observed, bound, group, kind, which, tally), evaluations: tally.n };
  }));
}
