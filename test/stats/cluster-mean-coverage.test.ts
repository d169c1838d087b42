import { describe, expect, it } from 'vitest';
import { clusterLinearInterval, clusterMeanRateInterval } from '../../src/stats/cluster-intervals.js';
import { betaBinomialMatches } from '../helpers/beta-binomial.js';

/**
 * Coverage of a model's interval over its opponents (reports/models.csv, docs/methods.md §21): the
 * unweighted mean of K = 3 opponents' cell rates, each cell G = 5 matches of 10 rounds from the
 * independent beta-binomial generator (test/helpers/beta-binomial.ts), intra-match correlation
 * 0.3, every opponent's true rate 0.3 or 0.95 (and one mixed design near 1); 2,000 data sets per
 * regime (Monte Carlo s.e. of a coverage near 0.95 ≈ 0.005, so 0.90 and 0.95 are told apart).
 * Near 1 the t interval clipped to [0, 1] covers less than 0.90 (measured here beside it, on the
 * same data sets); the mean gets the effective-n Clopper–Pearson interval there, as a cell's rate does.
 */
const SETS = 2000;

describe('per-model mean over opponents: coverage near and away from the boundary', () => {
  const regimes: [string, number[]][] = [['0.3', [0.3, 0.3, 0.3]], ['0.95', [0.95, 0.95, 0.95]], ['0.9, 0.95, 0.99', [0.9, 0.95, 0.99]]];
  regimes.forEach(([label, rates], i) => {
    it(`3 opponents × 5 matches × 10 rounds, ICC 0.3, rates ${label}: coverage ≥ 0.90`, () => {
      const draw = betaBinomialMatches(4100 + i);
      const truth = rates.reduce((a, b) => a + b, 0) / rates.length;
      let hit = 0, clipped = 0, width = 0, widthT = 0;
      for (let s = 0; s < SETS; s++) {
        const cols = rates.map((p) => draw(5, 10, p, 0.3));
        const iv = clusterMeanRateInterval(cols);
        if (iv.lo <= truth && truth <= iv.hi) hit++;
        const t = clusterLinearInterval(cols, [1 / 3, 1 / 3, 1 / 3], iv.point, [0, 1]);
        if (t.lo <= truth && truth <= t.hi) clipped++;
        width += (iv.hi - iv.lo) / SETS; widthT += (t.hi - t.lo) / SETS;
      }
      process.stdout.write(`models.csv mean, rates ${label}: coverage ${(hit / SETS).toFixed(3)}, mean width ${width.toFixed(3)} (t clipped to [0, 1]: ${(clipped / SETS).toFixed(3)}, ${widthT.toFixed(3)})\n`);
      expect(hit / SETS).toBeGreaterThanOrEqual(0.9);
      if (label === '0.95') expect(clipped / SETS).toBeLessThan(0.9); // the regime is one where the boundary matters
    });
  });
});
