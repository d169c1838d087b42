/**
 * The cells of the repeated analysis from per-match aggregates (core/aggregates.ts) rather than
 * decisions: the same columns `repeatedCells` builds (all rounds, each round, each previous
 * round, the rounds before the last), the cells and their matches in a stable order (sorted).
 */
import { roundAt, sortedMatches, stateAt, type MatchAggregates } from '../../core/aggregates.js';
import { columnOf, type RepeatedCell } from './layout.js';

/** The cells of the aggregates, regrouped by the chosen factors, without the dropped models. */
export function aggregateRepeatedCells(agg: MatchAggregates, factors: readonly string[] = [], dropModels: ReadonlySet<string> = new Set()): RepeatedCell[] {
  return agg.sortedCells(factors, dropModels).map((c) => {
    const R = c.horizon, width = columnOf.width(R);
    const matches = sortedMatches(c);
    const sizes = Array.from({ length: width }, () => new Float64Array(matches.length));
    const sums = Array.from({ length: width }, () => new Float64Array(matches.length));
    matches.forEach(([, m], j) => {
      for (let r = 1; r <= R; r++) {
        const valid = roundAt(m, r, 1), coop = roundAt(m, r, 2);
        sizes[columnOf.all][j] += valid; sums[columnOf.all][j] += coop;
        sizes[columnOf.round(r)][j] += valid; sums[columnOf.round(r)][j] += coop;
        if (r < R) { sizes[columnOf.beforeLast(R)][j] += valid; sums[columnOf.beforeLast(R)][j] += coop; }
      }
      for (let s = 1; s <= 4; s++) { sizes[R + s][j] += stateAt(m, s, 0); sums[R + s][j] += stateAt(m, s, 1); }
    });
    const [model, game, framing, opponent] = c.key;
    return {
      key: { model, game, framing, opponent }, factors: Object.fromEntries(factors.map((f, i) => [f, c.key[4 + i]])),
      matches: matches.map(([id]) => id), horizon: R, columns: { sizes, sums },
    };
  });
}
