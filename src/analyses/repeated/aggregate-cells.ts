/**
 * The cells of the repeated analysis from per-match aggregates (core/aggregates.ts) rather than
 * decisions: the same columns `repeatedCells` builds (all rounds, each round, each previous
 * round, the rounds before the last), the cells and their matches in a stable order (sorted).
 * The columns hold whole counts, each cell's in the narrowest unsigned integers that hold its
 * largest per-match total (8, 16 or 32 bits): the values, and so every statistic, are those of
 * doubles, in an eighth to a half of the memory.
 */
import { roundAt, stateAt, type AggregateCell, type MatchAggregates, type MatchSums } from '../../core/aggregates.js';
import type { CountColumn } from '../../core/cells.js';
import { columnOf, type RepeatedCell } from './layout.js';

/** The largest per-match total of any column of the cell: all rounds, or all previous states. */
function largestTotal(c: AggregateCell, order: readonly number[]): number {
  let max = 0;
  for (const j of order) {
    const m = c.sums(j);
    let valid = 0, coop = 0, sv = 0, sc = 0;
    for (let r = 1; r <= c.horizon; r++) { valid += roundAt(m, r, 1); coop += roundAt(m, r, 2); }
    for (let s = 1; s <= 4; s++) { sv += stateAt(m, s, 0); sc += stateAt(m, s, 1); }
    max = Math.max(max, valid, coop, sv, sc);
  }
  return max;
}

/** An array of n counts none above `max`, in the narrowest unsigned type that holds them. */
function counts(n: number, max: number): CountColumn {
  return max <= 0xff ? new Uint8Array(n) : max <= 0xffff ? new Uint16Array(n) : new Uint32Array(n);
}

function fill(m: MatchSums, R: number, j: number, sizes: CountColumn[], sums: CountColumn[]): void {
  for (let r = 1; r <= R; r++) {
    const valid = roundAt(m, r, 1), coop = roundAt(m, r, 2);
    sizes[columnOf.all][j] += valid; sums[columnOf.all][j] += coop;
    sizes[columnOf.round(r)][j] += valid; sums[columnOf.round(r)][j] += coop;
    if (r < R) { sizes[columnOf.beforeLast(R)][j] += valid; sums[columnOf.beforeLast(R)][j] += coop; }
  }
  for (let s = 1; s <= 4; s++) { sizes[R + s][j] += stateAt(m, s, 0); sums[R + s][j] += stateAt(m, s, 1); }
}

/** The cells of the aggregates, regrouped by the chosen factors, without the dropped models. */
export function aggregateRepeatedCells(agg: MatchAggregates, factors: readonly string[] = [], dropModels: ReadonlySet<string> = new Set()): RepeatedCell[] {
  return agg.sortedCells(factors, dropModels).map((c) => {
    const R = c.horizon, width = columnOf.width(R);
    const order = c.order(), max = largestTotal(c, order);
    const sizes = Array.from({ length: width }, () => counts(order.length, max));
    const sums = Array.from({ length: width }, () => counts(order.length, max));
    order.forEach((at, j) => fill(c.sums(at), R, j, sizes, sums));
    const [model, game, framing, opponent] = c.key;
    return {
      key: { model, game, framing, opponent }, factors: Object.fromEntries(factors.map((f, i) => [f, c.key[4 + i]])),
      matches: order.map((at) => c.id(at)), horizon: R, columns: { sizes, sums },
    };
  });
}
