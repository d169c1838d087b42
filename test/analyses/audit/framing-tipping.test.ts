import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/index.js';
import { framingTipping } from '../../../src/analyses/audit/framing-tipping.js';
import type { ReadingErrorResult } from '../../../src/analyses/audit/reading-error.js';
import { framingTestP, gStatistic } from '../../../src/stats/framing-test.js';
import { chi2Quantile } from '../../../src/stats/chi2.js';

/**
 * The tipping point of the pooled R = 1 test as the rows print it (docs/methods.md §10.3: χ², or
 * where a pair is sparse the larger of χ² and the exact conditional p): the search's count against
 * an exhaustive search over every table within that many changes, and the reading-error minimum
 * against enumeration.
 */
function table(counts: readonly [number, number, number, number], n: readonly [number, number, number, number]): CellTable {
  const cell = (model: string, framing: string, x: number, m: number) => ({ key: { model, game: 'G', framing }, obs: { kind: 'binary' as const, n: m, x } });
  return { factors: ['model', 'game', 'framing'], cells: [
    cell('A', 'business', counts[0], n[0]), cell('A', 'friend-sharing', counts[1], n[1]),
    cell('B', 'business', counts[2], n[2]), cell('B', 'friend-sharing', counts[3], n[3]),
  ] };
}
const K1 = { K: 1, label: '±1', reconstructedCells: 4, given: false, ranges: [], evaluations: 0 } as unknown as ReadingErrorResult;

/** The pooled test as the rows print it rejects (χ², or where a pair is sparse the larger of χ² and the exact conditional p). */
function rowRejects(c: readonly number[], n: readonly number[]): boolean {
  const pairs = [{ xb: c[0], nb: n[0], xs: c[1], ns: n[1] }, { xb: c[2], nb: n[2], xs: c[3], ns: n[3] }];
  return framingTestP(pairs, gStatistic(c[0], n[0], c[1], n[1]) + gStatistic(c[2], n[2], c[3], n[3])).p < 0.05;
}

/** Every table within `d` count changes of x (L1 distance), with its distance. */
function* near(x: readonly number[], n: readonly number[], d: number, i = 0, at: number[] = []): Generator<[number[], number]> {
  if (i === x.length) { yield [at, at.reduce((s, v, j) => s + Math.abs(v - x[j]), 0)]; return; }
  const used = at.reduce((s, v, j) => s + Math.abs(v - x[j]), 0);
  for (let v = Math.max(0, x[i] - (d - used)); v <= Math.min(n[i], x[i] + (d - used)); v++) yield* near(x, n, d, i + 1, [...at, v]);
}

describe('the R = 1 test tipping point', () => {
  it.each([
    [[2, 9, 3, 10], [12, 12, 12, 12]],
    [[1, 10, 6, 6], [12, 11, 10, 13]],
    [[0, 8, 12, 4], [12, 12, 12, 12]],
    [[60, 90, 70, 95], [200, 200, 180, 190]],
  ] as const)('counts %j of %j: no table of fewer changes overturns the test the rows print (exhaustive)', (x, n) => {
    const a = analyzeTwoFraming(table(x, n), { seed: 1, reps: 10, attenuation: 1, base: 'business', alt: 'friend-sharing' });
    const t = framingTipping(a, K1, [true, true, true, true])!;
    const crit = chi2Quantile(0.95, 2);
    const G = (c: readonly number[]) => gStatistic(c[0], n[0], c[1], n[1]) + gStatistic(c[2], n[2], c[3], n[3]);
    expect(t.holds).toBe(rowRejects(x, n));
    expect(t.holds).toBe(true);
    // the lowest ΣG within ±1 of each count, and χ²'s own minimum, by enumeration
    let minG1 = Infinity, chi2Best = Infinity, rowBest = Infinity;
    for (const [c, d] of near(x, n, t.changes!)) {
      if (c.every((v, i) => Math.abs(v - x[i]) <= 1)) minG1 = Math.min(minG1, G(c));
      if (G(c) <= crit) chi2Best = Math.min(chi2Best, d);
      if (d < t.changes! && !rowRejects(c, n)) rowBest = Math.min(rowBest, d);
    }
    expect(t.readingError.minG).toBeCloseTo(minG1, 12);
    // the count is χ²'s minimum or fewer, and no table of fewer changes overturns the row's test
    expect(t.changes).toBeLessThanOrEqual(chi2Best);
    expect(rowBest).toBe(Infinity);
    const pairs = [{ xb: x[0], nb: n[0], xs: x[1], ns: n[1] }, { xb: x[2], nb: n[2], xs: x[3], ns: n[3] }];
    expect(t.test === 'exact').toBe(framingTestP(pairs, G(x)).method === 'exact');
    expect(t.atMost).toBeUndefined();
    // The changed table it names does overturn the test.
    const changed: number[] = [...x];
    for (const c of t.cells) {
      const i = ['A / G / business', 'A / G / friend-sharing', 'B / G / business', 'B / G / friend-sharing'].indexOf(c.cell);
      expect(changed[i]).toBe(c.from);
      changed[i] = c.to;
    }
    expect(rowRejects(changed, n)).toBe(false);
    expect(changed.reduce((s, v, i) => s + Math.abs(v - x[i]), 0)).toBe(t.changes);
    console.log(`${JSON.stringify(x)} of ${JSON.stringify(n)}: ${t.atMost ? 'at most ' : ''}${t.changes} changes (χ² alone ${chi2Best === Infinity ? `more than ${t.changes}` : chi2Best}); `
      + `fewer found by enumeration: ${rowBest === Infinity ? 'none' : rowBest}`);
  });
  it('a sparse table χ² calls significant and the exact test does not: the conclusion does not hold', () => {
    // 0 of 12 against 4 of 12, twice: χ² p = 0.025, the exact conditional p larger than 0.05
    const x = [0, 4, 0, 4] as const, n = [12, 12, 12, 12] as const;
    const a = analyzeTwoFraming(table(x, n), { seed: 1, reps: 10, attenuation: 1, base: 'business', alt: 'friend-sharing' });
    const t = framingTipping(a, K1, [true, true, true, true])!;
    expect(G2(x, n)).toBeGreaterThan(chi2Quantile(0.95, 2));
    expect(t.holds).toBe(rowRejects(x, n));
  });
});

const G2 = (c: readonly number[], n: readonly number[]) => gStatistic(c[0], n[0], c[1], n[1]) + gStatistic(c[2], n[2], c[3], n[3]);
