import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/index.js';
import { framingTipping } from '../../../src/analyses/audit/framing-tipping.js';
import type { ReadingErrorResult } from '../../../src/analyses/audit/reading-error.js';
import { gStatistic } from '../../../src/stats/framing-test.js';
import { chi2Quantile } from '../../../src/stats/chi2.js';

/**
 * The tipping point of the pooled R = 1 test (docs/methods.md §10.3): the dynamic programme's
 * minimum against an exhaustive search over every table of two small pairs, and the reading-error
 * minimum against enumeration.
 */
function table(counts: readonly [number, number, number, number], n: readonly [number, number, number, number]): CellTable {
  const cell = (model: string, framing: string, x: number, m: number) => ({ key: { model, game: 'G', framing }, obs: { kind: 'binary' as const, n: m, x } });
  return { factors: ['model', 'game', 'framing'], cells: [
    cell('A', 'business', counts[0], n[0]), cell('A', 'friend-sharing', counts[1], n[1]),
    cell('B', 'business', counts[2], n[2]), cell('B', 'friend-sharing', counts[3], n[3]),
  ] };
}
const K1 = { K: 1, label: '±1', reconstructedCells: 4, given: false, ranges: [], evaluations: 0 } as unknown as ReadingErrorResult;

describe('the R = 1 test tipping point', () => {
  it.each([
    [[2, 9, 3, 10], [12, 12, 12, 12]],
    [[1, 10, 6, 6], [12, 11, 10, 13]],
    [[0, 8, 12, 4], [12, 12, 12, 12]],
  ] as const)('counts %j of %j: the exhaustive minimum', (x, n) => {
    const a = analyzeTwoFraming(table(x, n), { seed: 1, reps: 10, attenuation: 1, base: 'business', alt: 'friend-sharing' });
    const t = framingTipping(a, K1, [true, true, true, true])!;
    const crit = chi2Quantile(0.95, 2);
    const G = (c: readonly number[]) => gStatistic(c[0], n[0], c[1], n[1]) + gStatistic(c[2], n[2], c[3], n[3]);
    expect(t.holds).toBe(G(x) > crit);
    let best = Infinity, minG1 = Infinity;
    for (let a0 = 0; a0 <= n[0]; a0++) for (let a1 = 0; a1 <= n[1]; a1++) for (let a2 = 0; a2 <= n[2]; a2++) for (let a3 = 0; a3 <= n[3]; a3++) {
      const c = [a0, a1, a2, a3];
      const d = c.reduce((s, v, i) => s + Math.abs(v - x[i]), 0);
      const g = G(c);
      if (g <= crit) best = Math.min(best, d);
      if (c.every((v, i) => Math.abs(v - x[i]) <= 1)) minG1 = Math.min(minG1, g);
    }
    expect(t.changes).toBe(best);
    expect(t.readingError.minG).toBeCloseTo(minG1, 12);
    // The changed table it names does overturn the test.
    const changed: number[] = [...x];
    for (const c of t.cells) {
      const i = ['A / G / business', 'A / G / friend-sharing', 'B / G / business', 'B / G / friend-sharing'].indexOf(c.cell);
      expect(changed[i]).toBe(c.from);
      changed[i] = c.to;
    }
    expect(G(changed)).toBeLessThanOrEqual(crit);
    expect(changed.reduce((s, v, i) => s + Math.abs(v - x[i]), 0)).toBe(best);
  });
});
