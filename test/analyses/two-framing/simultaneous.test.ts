import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { analyzeTwoFraming, table3Rows } from '../../../src/analyses/two-framing/index.js';
import { stat } from '../../../src/core/names.js';
import { binomial, generator } from '../../helpers/independent-rng.js';

/**
 * `--simultaneous` (docs/methods.md §8.6): the per-model shifts as one sup-t band. Three models ×
 * four games, n = 300, data from the independent generator of test/helpers; the statement "every
 * model's shift lies in its interval" holds about 95 % of the time with the band and about
 * 0.95³ ≈ 86 % with pointwise intervals. 600 data sets (SE 0.009 at 0.95), 500 replicates each.
 */
const BASE = [0.2, 0.4, 0.6, 0.8, 0.3, 0.5, 0.1, 0.7, 0.45, 0.55, 0.25, 0.65];
const ALT = [0.3, 0.45, 0.6, 0.9, 0.3, 0.6, 0.15, 0.65, 0.5, 0.7, 0.25, 0.8];
const MODELS = ['m1', 'm2', 'm3'];
const SIMS = 600;

function dataSet(u: () => number, n: number): CellTable {
  const cells = MODELS.flatMap((model, mi) => [0, 1, 2, 3].flatMap((g) => {
    const i = mi * 4 + g;
    return [
      { key: { model, game: `g${g}`, framing: 'b' }, obs: { kind: 'binary' as const, n, x: binomial(u, n, BASE[i]) } },
      { key: { model, game: `g${g}`, framing: 's' }, obs: { kind: 'binary' as const, n, x: binomial(u, n, ALT[i]) } },
    ];
  }));
  return { factors: ['model', 'game', 'framing'], cells };
}

describe('simultaneous bands for the per-model shifts', () => {
  it('hold jointly about 95 % of the time; pointwise intervals jointly less', () => {
    const truth = MODELS.map((_, mi) => [0, 1, 2, 3].reduce((s, g) => s + ALT[mi * 4 + g] - BASE[mi * 4 + g], 0) / 4);
    const u = generator(35);
    let band = 0, pointwise = 0;
    for (let s = 0; s < SIMS; s++) {
      const table = dataSet(u, 300);
      const a = analyzeTwoFraming(table, { seed: s + 1, reps: 500, attenuation: 1, base: 'b', alt: 's', simultaneous: true });
      const rows = table3Rows(a);
      if (MODELS.every((m, i) => rows[i].shift_lo <= truth[i] && truth[i] <= rows[i].shift_hi)) band++;
      if (MODELS.every((m, i) => { const v = a.boot.get(stat('shift', m)); return v.lo <= truth[i] && truth[i] <= v.hi; })) pointwise++;
    }
    console.log(`joint coverage of the per-model shifts: band ${band / SIMS}, pointwise ${pointwise / SIMS}`);
    expect(band / SIMS).toBeGreaterThanOrEqual(0.93);
    expect(pointwise / SIMS).toBeLessThan(band / SIMS);
  });

  it('widens only the per-model rows; Pooled and the bootstrap itself stay pointwise', () => {
    const table = dataSet(generator(1), 300);
    const plain = analyzeTwoFraming(table, { seed: 1, reps: 2000, attenuation: 1, base: 'b', alt: 's' });
    const sim = analyzeTwoFraming(table, { seed: 1, reps: 2000, attenuation: 1, base: 'b', alt: 's', simultaneous: true });
    const [p, q] = [table3Rows(plain), table3Rows(sim)];
    expect(q[3]).toEqual(p[3]);
    for (let i = 0; i < 3; i++) expect(q[i].shift_hi - q[i].shift_lo).toBeGreaterThan(p[i].shift_hi - p[i].shift_lo);
    expect(sim.boot.lo).toEqual(plain.boot.lo);
    expect(sim.bands!.c.shift).toBeGreaterThan(1.96);
  });
});
