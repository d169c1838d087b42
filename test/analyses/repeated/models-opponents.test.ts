/**
 * A model that met three opponents (six 3-round matches each), cooperating in the first round of
 * two matches against one and of one match against another: 3 of 54 decisions, a mean over
 * opponents of 1/18 ≈ 0.056. The t interval of that mean reaches below 0; clipped to [0, 1] it
 * would start at 0 (the interval §8.4 measures at 0.47–0.78 coverage near 0 or 1). models.csv gives
 * the mean the effective-n Clopper–Pearson interval instead (docs/methods.md §21), above 0 since
 * cooperation was seen, and no narrower than Clopper–Pearson on all 54 decisions (n* ≤ N).
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/core/games.js';
import type { RepeatedDecision } from '../../../src/core/decisions.js';
import { analyzeRepeatedPlay } from '../../../src/analyses/repeated/analysis.js';
import { modelRows } from '../../../src/analyses/repeated/models.js';
import { betaQuantile } from '../../../src/stats/t-beta.js';

const rare: Action[][] = Array.from({ length: 6 }, () => ['D', 'D', 'D']);
const decisionsOf = (byOpponent: Record<string, Action[][]>): RepeatedDecision[] => Object.entries(byOpponent).flatMap(([opponent, moves]) =>
  moves.flatMap((m, j) => m.map((action, i) => ({
    model: 'A', game: 'pd', framing: 'f', opponent, match: `${opponent}-${j}`, round: i + 1, seat: 1, action,
    opponentAction: (i === 0 ? 'C' : m[i - 1]) as Action,
  }))));

describe('per-model statistics of a model with three opponents near 0', () => {
  const opening = (k: number) => rare.map((m, j) => (j < k ? ['C', 'D', 'D'] as Action[] : m));
  const [row] = modelRows(analyzeRepeatedPlay(decisionsOf({ tft: opening(2), grim: opening(1), alld: rare }), { seed: 1, reps: 100 }));
  it('cooperation over all rounds: 3/54, an interval above 0 holding Clopper–Pearson\'s on 3 of 54', () => {
    const v = row.values.cooperation;
    expect(v.point).toBeCloseTo(3 / 54, 12);
    expect(v.lo).toBeGreaterThan(0);
    expect(v.lo).toBeLessThanOrEqual(betaQuantile(0.025, 3, 52) + 1e-12); // scipy.stats.beta.ppf(0.025, 3, 52) = 0.01161
    expect(v.hi).toBeGreaterThanOrEqual(betaQuantile(0.975, 4, 51) - 1e-12); // scipy.stats.beta.ppf(0.975, 4, 51) = 0.1539
    expect(v.hi).toBeLessThan(1);
  });
  it('round 1 (3 of 18): above 0 as well', () => {
    const v = row.values.first_round;
    expect(v.point).toBeCloseTo(1 / 6, 12);
    expect(v.lo).toBeGreaterThan(0);
  });
});
