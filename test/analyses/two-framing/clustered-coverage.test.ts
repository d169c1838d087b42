import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { stat } from '../../../src/core/names.js';
import { analyzeTwoFraming, twoFramingEstimand, twoFramingLayout } from '../../../src/analyses/two-framing/index.js';
import { testSampler } from '../../helpers/beta-binomial.js';

/**
 * Table 3 of clustered cells (docs/methods.md §8.4): one model, one game, two framings, G matches
 * of 10 rounds per cell from the independent beta-binomial generator (test/helpers/beta-binomial.ts,
 * ICC 0.3); the R and shift intervals the two-framing analysis reports by default. 500 data sets
 * per regime (s.e. ≈ 0.01 near 0.95: 0.90 lies 5 s.e. below 0.95). Rates with and without a framing effect, near 0.3 and near 1.
 */
const SETS = 500;
const keys = [{ model: 'M', game: 'g', framing: 'b' }, { model: 'M', game: 'g', framing: 's' }];
const settings = { reps: 1, attenuation: 1, base: 'b', alt: 's' } as const;

describe('clustered Table 3: cluster-robust R and shift', () => {
  for (const [pb, ps] of [[0.3, 0.3], [0.3, 0.45], [0.95, 0.95], [0.9, 0.97]] as const) {
    for (const G of [3, 5, 10]) {
      it(`G = ${G}, rates ${pb} → ${ps}: coverage ≥ 0.90 for the shift and R`, () => {
        const gen = testSampler(100 * G + Math.round(100 * ps));
        const est = twoFramingEstimand(twoFramingLayout({ factors: ['model', 'game', 'framing'], cells: keys.map((key) => ({ key, obs: { kind: 'binary', n: 1, x: 0 } })) }, 'b', 's'), 1);
        const truth = new Float64Array(est.names.length);
        est.evaluate(Float64Array.from([pb, ps]), truth);
        const names = [stat('shift', 'M'), stat('R', 'M')];
        const hit = [0, 0];
        for (let s = 0; s < SETS; s++) {
          const table: CellTable = { factors: ['model', 'game', 'framing'], cells: [pb, ps].map((p, k) => ({ key: keys[k], obs: { kind: 'clustered', ...gen.matches(G, 10, p, 0.3) } })) };
          const a = analyzeTwoFraming(table, { ...settings, seed: s });
          names.forEach((n, k) => { const v = a.boot.get(n), t = truth[est.names.indexOf(n)]; if (v.lo <= t + 1e-12 && t <= v.hi + 1e-12) hit[k]++; });
        }
        console.log(`clustered Table 3, G = ${G}, ${pb} → ${ps}: shift ${(hit[0] / SETS).toFixed(3)}, R ${(hit[1] / SETS).toFixed(3)}`);
        expect(hit[0] / SETS, 'shift').toBeGreaterThanOrEqual(0.9);
        expect(hit[1] / SETS, 'R').toBeGreaterThanOrEqual(0.9);
      });
    }
  }

  it('G = 2: no R or shift interval, and the reason among the notes', () => {
    const gen = testSampler(2);
    const table: CellTable = { factors: ['model', 'game', 'framing'], cells: keys.map((key) => ({ key, obs: { kind: 'clustered', ...gen.matches(2, 10, 0.4, 0.3) } })) };
    for (const clusterInterval of ['cluster-robust', 'cluster-bootstrap'] as const) {
      const a = analyzeTwoFraming(table, { ...settings, reps: 200, seed: 1, clusterInterval });
      for (const n of [stat('shift', 'M'), stat('R', 'M')]) expect([a.boot.get(n).lo, a.boot.get(n).hi]).toEqual([NaN, NaN]);
      expect(a.boot.notes.join('\n')).toMatch(/no interval: .* rest on a cell of fewer than 3 matches/);
    }
  });
});
