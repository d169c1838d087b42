import type { ReplicateState } from './replicate-state.js';

/**
 * Search for the fewest single-count changes that overturn a conclusion read off bootstrap
 * intervals (a fragility index, Walsh et al. 2014, J Clin Epidemiol 67:622, generalized to any
 * cells and both directions). A conclusion is a margin that is > 0 while it holds.
 *
 * 1. Greedy at reduced replicates (or a given constructive table that overturns it) (`search` state): from the observed table, repeatedly take the
 *    move (one cell, or both cells of a pair, by s counts) that lowers the margin most per count (ties broken by the point
 *    estimate's margin, for plateaus of a percentile); s starts large and halves whenever no move
 *    helps or the best move would overshoot, so the last steps are single counts.
 * 2. At full replicates (`full` state): extend single-count greedily if the reduced-replicate
 *    table does not yet flip, then prune — take counts back while the conclusion stays overturned.
 * 3. If every table with fewer changes can be enumerated within the budget, do so at full
 *    replicates: the first flip at the smallest L1 distance is the exact minimum. Otherwise the
 *    count is an upper bound (a table with that many changes flips it; fewer might too).
 * "Exact" is relative to the fixed seed: the interval is a percentile of this seed's replicates.
 */
export interface TippingProblem {
  /** Cells that may change. */
  readonly scope: readonly number[];
  /** Cell groups that may also move together (the two cells of a pair). */
  readonly pairs?: readonly (readonly number[])[];
  /** > 0 while the conclusion holds. */
  margin(state: ReplicateState): number;
  /** Secondary margin on point estimates, to break ties when the endpoint does not move. */
  tiebreak(state: ReplicateState): number;
}

export interface SearchOptions {
  /** Largest evaluations for the exhaustive phase (default 3000). */
  readonly exactBudget?: number;
  /** Cap on greedy iterations (default 20000). */
  readonly maxIterations?: number;
  /**
   * A table known to overturn the conclusion (a constructive plan), used instead of the greedy
   * phase where greedy steps stall on a plateau; it is then checked, extended and pruned alike.
   */
  readonly start?: Int32Array;
}

export interface SearchOutcome {
  /** The flipping table's counts, or undefined when no flip was found. */
  readonly counts?: Int32Array;
  readonly changes?: number;
  readonly method: 'exact' | 'greedy' | 'constructive' | 'not-found';
  readonly evaluations: number;
}

const EPS = 1e-15;
/** [cell, count before, count after] of each cell a move changes. */
type Move = [number, number, number][];
const l1 = (a: ArrayLike<number>, b: ArrayLike<number>) => { let s = 0; for (let i = 0; i < a.length; i++) s += Math.abs(a[i] - b[i]); return s; };

function greedy(st: ReplicateState, pr: TippingProblem, start: ArrayLike<number>, step: number, maxIter: number,
  tally: { n: number }): Int32Array | undefined {
  st.setCounts(start);
  let m = pr.margin(st), t = pr.tiebreak(st);
  tally.n++;
  if (m <= 0) return Int32Array.from(st.counts);
  // Moves: one cell by ±s, or both cells of a pair by ±s together — a pair at equal rates can
  // only travel along the diagonal (towards 0/n or n/n together) without first losing ground.
  const units: (readonly number[])[] = [...pr.scope.map((i) => [i]), ...(pr.pairs ?? [])];
  let s = step;
  for (let iter = 0; iter < maxIter; iter++) {
    const best = st.scan(() => bestMove(st, pr, units, s, m, t, tally));
    const helps = best !== undefined && (best.score > EPS || (Math.abs(best.score) <= EPS && best.tie > EPS));
    if (!helps) { if (s > 1) { s = Math.floor(s / 2); continue; } return undefined; }
    // The move's margin, read exactly (candidates were ranked in scan mode).
    for (const [i, , x] of best!.move) st.setCount(i, x);
    const m2 = pr.margin(st);
    if (m2 <= 0 && s > 1) { // would overshoot: approach in smaller steps
      for (const [i, x0] of best!.move) st.setCount(i, x0);
      pr.margin(st); // the exact sums of the table the next scan starts from
      s = Math.floor(s / 2);
      continue;
    }
    m = m2; t = best!.t;
    if (m <= 0) return Int32Array.from(st.counts);
  }
  return undefined;
}

/** The move (one unit by ±s) that lowers the margin most per count, ties broken by the point margin. */
function bestMove(st: ReplicateState, pr: TippingProblem, units: readonly (readonly number[])[], s: number, m: number, t: number,
  tally: { n: number }): { move: Move; score: number; tie: number; t: number } | undefined {
  let best: { move: Move; score: number; tie: number; t: number } | undefined;
  for (const cells of units) {
    for (let dir = 1; dir >= -1; dir -= 2) {
      const move: Move = [];
      let w = 0;
      for (const i of cells) {
        const x = Math.max(0, Math.min(st.ns[i], st.counts[i] + dir * s));
        if (x !== st.counts[i]) { move.push([i, st.counts[i], x]); w += Math.abs(x - st.counts[i]); }
      }
      if (w === 0) continue;
      for (const [i, , x] of move) st.setCount(i, x);
      const m2 = pr.margin(st), t2 = pr.tiebreak(st);
      for (const [i, x0] of move) st.setCount(i, x0);
      tally.n++;
      const score = (m - m2) / w, tie = (t - t2) / w;
      if (!best || score > best.score + EPS || (Math.abs(score - best.score) <= EPS && tie > best.tie + EPS)) {
        best = { move, score, tie, t: t2 };
      }
    }
  }
  return best;
}

/** Scan-mode values are this close to the exact ones (a few units in the last place of values ≤ 1). */
const SCAN_TOLERANCE = 1e-9;

/** Whether the current table overturns the conclusion (margin ≤ 0): read in scan mode, exactly when close to 0. */
function overturned(st: ReplicateState, pr: TippingProblem): boolean {
  const v = st.scan(() => pr.margin(st));
  return Math.abs(v) > SCAN_TOLERANCE ? v <= 0 : pr.margin(st) <= 0;
}

/** Take counts back toward the observed table while the conclusion stays overturned. */
function prune(st: ReplicateState, pr: TippingProblem, observed: ArrayLike<number>, tally: { n: number }): void {
  for (let changed = true; changed;) {
    changed = false;
    for (const i of pr.scope) {
      const d = st.counts[i] - observed[i];
      if (d === 0) continue;
      const x0 = st.counts[i];
      for (let r = Math.abs(d); r >= 1; r = r === 1 ? 0 : Math.ceil(r / 2)) {
        st.setCount(i, x0 - Math.sign(d) * r);
        tally.n++;
        if (overturned(st, pr)) { pr.margin(st); changed = true; break; } // the exact sums of the new table
        st.setCount(i, x0);
      }
    }
  }
}

/** Number of integer vectors over c cells with L1 norm ≤ m (ignoring the [0, n] bounds): an upper bound. */
export function tablesWithin(c: number, m: number): number {
  let total = 0;
  for (let j = 0; j <= m; j++) {
    if (j === 0) { total += 1; continue; }
    // vectors with L1 exactly j: Σ_k C(c,k)·C(j−1,k−1)·2^k
    let binCk = 1, binJk = 1;
    for (let k = 1; k <= Math.min(c, j); k++) {
      binCk = (binCk * (c - k + 1)) / k;
      binJk = k === 1 ? 1 : (binJk * (j - k + 1)) / (k - 1);
      total += binCk * binJk * 2 ** k;
      if (total > 1e12) return Infinity;
    }
  }
  return total;
}

/** Enumerate tables at L1 distance exactly m from observed; the first that flips, or undefined. */
function firstFlipAt(st: ReplicateState, pr: TippingProblem, observed: ArrayLike<number>, m: number, tally: { n: number }): Int32Array | undefined {
  const scope = pr.scope;
  const rec = (pos: number, left: number): boolean => {
    const i = scope[pos];
    if (pos === scope.length - 1) {
      for (const d of left === 0 ? [0] : [left, -left]) {
        const x = observed[i] + d;
        if (x < 0 || x > st.ns[i]) continue;
        st.setCount(i, x);
        tally.n++;
        if (overturned(st, pr)) return true;
      }
      st.setCount(i, observed[i]);
      return false;
    }
    for (let a = 0; a <= left; a++) {
      for (const d of a === 0 ? [0] : [a, -a]) {
        const x = observed[i] + d;
        if (x < 0 || x > st.ns[i]) continue;
        st.setCount(i, x);
        if (rec(pos + 1, left - a)) return true;
      }
    }
    st.setCount(i, observed[i]);
    return false;
  };
  st.setCounts(observed);
  return rec(0, m) ? Int32Array.from(st.counts) : undefined;
}

export function findTippingSet(search: ReplicateState, full: ReplicateState, pr: TippingProblem,
  opts: SearchOptions = {}): SearchOutcome {
  const observed = Int32Array.from(full.counts);
  const tally = { n: 0 };
  const minN = Math.min(...pr.scope.map((i) => full.ns[i]));
  const step = 2 ** Math.max(0, Math.floor(Math.log2(Math.max(1, minN / 10))));
  const maxIter = opts.maxIterations ?? 20000;
  const done = (o: SearchOutcome) => { search.setCounts(observed); full.setCounts(observed); return o; };

  let counts = opts.start ?? greedy(search, pr, observed, step, maxIter, tally);
  if (!counts) return done({ method: 'not-found', evaluations: tally.n });
  full.setCounts(counts);
  tally.n++;
  if (pr.margin(full) > 0) {
    counts = greedy(full, pr, counts, 1, maxIter, tally);
    if (!counts) return done({ method: 'not-found', evaluations: tally.n });
    full.setCounts(counts);
  }
  prune(full, pr, observed, tally);
  counts = Int32Array.from(full.counts);
  let changes = l1(counts, observed);
  let method: SearchOutcome['method'] = opts.start ? 'constructive' : 'greedy';
  if (tablesWithin(pr.scope.length, changes - 1) <= (opts.exactBudget ?? 3000)) {
    method = 'exact';
    for (let m = 1; m < changes; m++) {
      const found = firstFlipAt(full, pr, observed, m, tally);
      if (found) { counts = found; changes = m; break; }
    }
  }
  return done({ counts, changes, method, evaluations: tally.n });
}
