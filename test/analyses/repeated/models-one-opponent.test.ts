/**
 * A model that met one opponent: each per-model statistic (models.csv) is that one cell's rate, so
 * it carries the rate's own interval — the one cells.csv, rounds.csv and reactions.csv give — not a
 * second interval for the same number. Six 3-round matches against tit-for-tat, cooperation
 * rare (2 of 18 decisions), so the t interval leaves [0, 1] and the rate's interval is the
 * Clopper–Pearson one on the effective sample size (docs/methods.md §8.4); a clipped t interval
 * would start at 0.
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/core/games.js';
import type { RepeatedDecision } from '../../../src/core/decisions.js';
import { analyzeRepeatedPlay } from '../../../src/analyses/repeated/analysis.js';
import { modelRows } from '../../../src/analyses/repeated/models.js';
import { cellRows, reactionRows, roundRows } from '../../../src/analyses/repeated/tables.js';

const moves: Action[][] = [['C', 'D', 'D'], ['D', 'D', 'D'], ['D', 'C', 'D'], ['D', 'D', 'D'], ['D', 'D', 'D'], ['D', 'D', 'D']];
const decisions: RepeatedDecision[] = moves.flatMap((m, j) => m.map((action, i) => ({
  model: 'A', game: 'pd', framing: 'f', opponent: 'tft', match: `m${j}`, round: i + 1, seat: 1, action,
  opponentAction: (i === 0 ? 'C' : m[i - 1]) as Action,
})));

describe('per-model statistics of a model with one opponent', () => {
  const a = analyzeRepeatedPlay(decisions, { seed: 1, reps: 100 });
  const [row] = modelRows(a);
  const ends = (x: { lo: number; hi: number }) => [x.lo, x.hi];
  it('cooperation over all rounds: the cell\'s interval, not one clipped at 0', () => {
    const [cell] = cellRows(a);
    expect(row.values.cooperation.point).toBe(cell.cooperation);
    expect(ends(row.values.cooperation)).toEqual(ends(cell));
    expect(row.values.cooperation.lo).toBeGreaterThan(0);
  });
  it('round 1, the last round and the reactions: the intervals of rounds.csv and reactions.csv', () => {
    const rounds = roundRows(a);
    expect(ends(row.values.first_round)).toEqual(ends(rounds.find((r) => r.round === 1)!));
    expect(ends(row.values.last_round)).toEqual(ends(rounds.find((r) => r.round === 3)!));
    for (const r of reactionRows(a)) {
      const v = row.values[`after_${r.previous}` as const];
      if (r.n === 0) expect(v.point).toBeNaN();
      else expect(ends(v)).toEqual(ends(r));
    }
  });
});
