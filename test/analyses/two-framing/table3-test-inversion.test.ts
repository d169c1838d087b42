import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { analyzeTwoFraming, framingTestRows, intervalKind, table3IntervalKind, table3Rows, type TwoFramingSettings } from '../../../src/analyses/two-framing/index.js';
import { jsdBernoulli } from '../../../src/stats/jsd.js';
import { binomial, generator } from '../../helpers/independent-rng.js';

/**
 * Table 3 of a direct run at a = 1 with binary cells (settings.framingTestIntervals): R is the
 * bias-corrected R with its test-inversion interval, the shift's interval MOVER-Wilson
 * (docs/methods.md §8.5). Coverage measured on data from the independent generator of
 * test/helpers/independent-rng.ts (as framing-tests-coverage.test.ts): 1,500 data sets, so a
 * coverage of 0.95 has a Monte Carlo SE of 0.006 and 0.90 is told from 0.95 by 8 SE.
 */
const MODELS = ['m1', 'm2', 'm3'];
const GAMES = ['g1', 'g2', 'g3', 'g4'];

function dataSet(u: () => number, base: number, alt: number, n: number): CellTable {
  const cells = MODELS.flatMap((model) => GAMES.flatMap((game) => [
    { key: { model, game, framing: 'b' }, obs: { kind: 'binary' as const, n, x: binomial(u, n, base) } },
    { key: { model, game, framing: 's' }, obs: { kind: 'binary' as const, n, x: binomial(u, n, alt) } },
  ]));
  return { factors: ['model', 'game', 'framing'], cells };
}

const SETTINGS: TwoFramingSettings = { seed: 1, reps: 200, attenuation: 1, base: 'b', alt: 's', framingTestIntervals: true };

describe('Table 3 of a direct run from the R = 1 test', () => {
  it('12 pairs, n = 100, base 0.5, alt 0.55: the pooled R interval of Table 3 covers the true R in ≥ 0.90 of 1,500 data sets', () => {
    const u = generator(20261201);
    const truth = 1 - jsdBernoulli(0.5, 0.55) / Math.LN2;
    const SIMS = 1500;
    let covered = 0, shiftCovered = 0;
    for (let s = 0; s < SIMS; s++) {
      const a = analyzeTwoFraming(dataSet(u, 0.5, 0.55, 100), { ...SETTINGS, reps: 1 });
      const pooled = table3Rows(a).at(-1)!;
      if (pooled.R_lo <= truth + 1e-12 && truth <= pooled.R_hi + 1e-12) covered++;
      if (pooled.shift_lo <= 0.05 + 1e-12 && 0.05 <= pooled.shift_hi + 1e-12) shiftCovered++;
    }
    console.log(`Table 3 pooled R coverage n=100 d=0.05: ${(covered / SIMS).toFixed(4)}; shift ${(shiftCovered / SIMS).toFixed(4)}`);
    expect(covered / SIMS).toBeGreaterThanOrEqual(0.9);
    expect(shiftCovered / SIMS).toBeGreaterThanOrEqual(0.9);
  });

  it('Table 3 per model and pooled is framing-tests.csv\'s bias-corrected R, test-inversion interval and MOVER-Wilson shift interval, named so', () => {
    const a = analyzeTwoFraming(dataSet(generator(5), 0.3, 0.4, 80), SETTINGS);
    expect(a.framingTestIntervals).toBe(true);
    expect(table3IntervalKind(a)).toBe('test-inversion (bias-corrected R) and MOVER-Wilson (shift)');
    expect(intervalKind(a)).toBe('percentile-bootstrap'); // the other statistics (per cell, family) keep the bootstrap's
    const tests = framingTestRows(a).filter((r) => r.game === 'All');
    const t3 = table3Rows(a);
    expect(t3.map((r) => r.model)).toEqual(tests.map((r) => r.model));
    t3.forEach((r, i) => {
      expect([r.R, r.R_lo, r.R_hi]).toEqual([tests[i].R_corrected, tests[i].R_test_lo, tests[i].R_test_hi]);
      expect([r.shift_lo, r.shift_hi]).toEqual([tests[i].shift_wilson_lo, tests[i].shift_wilson_hi]);
      expect(r.shift).toBeCloseTo(tests[i].shift, 12);
    });
  });

  it('keeps the bootstrap where the scales or the method differ: a < 1, BCa, --simultaneous, or not asked for', () => {
    const table = dataSet(generator(6), 0.3, 0.4, 80);
    const plain = table3Rows(analyzeTwoFraming(table, { ...SETTINGS, framingTestIntervals: undefined }));
    for (const s of [{ ...SETTINGS, attenuation: 0.7 }, { ...SETTINGS, interval: 'bca' as const }, { ...SETTINGS, simultaneous: true }, { ...SETTINGS, framingTestIntervals: false }]) {
      const a = analyzeTwoFraming(table, s);
      expect(a.framingTestIntervals).toBeUndefined();
      expect(table3IntervalKind(a)).not.toContain('test-inversion');
    }
    const tested = table3Rows(analyzeTwoFraming(table, SETTINGS));
    expect(tested.at(-1)!.R_lo).not.toBe(plain.at(-1)!.R_lo);
  });
});
