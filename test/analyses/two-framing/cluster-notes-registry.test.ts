import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/index.js';
import { registerTable3Column, type Table3Column } from '../../../src/stats/table3.js';

/**
 * The notes under a clustered Table 3 name the reported statistics by the Table 3 registry
 * (stats/table3.ts): a column registered at run time is named beside R and the shift when it rests
 * on a cell of fewer than 3 matches, and when it rests on a cell where one match holds most decisions.
 */
const ABS: Table3Column = {
  column: 'abs_shift', label: '|Action shift|', info: { kind: 'shift', bounds: [0, 1] },
  cell: (pb, pa) => Math.abs(pa - pb),
  conservative: (x, a) => a * x,
  text: { quantity: 'absolute action shift', short: 'Abs. shift', formula: '|shift|_c = a·|Δ|' },
  names: { cell: 'abs_shift_raw', cellConservative: 'abs_shift_conservative', group: 'abs_shift_raw', groupConservative: 'abs_shift' },
};
const keys = [{ model: 'M', game: 'g', framing: 'b' }, { model: 'M', game: 'g', framing: 's' }];
const table = (sizes: number[], sums: readonly number[][]): CellTable => ({ factors: ['model', 'game', 'framing'],
  cells: keys.map((key, k) => ({ key, obs: { kind: 'clustered', sizes: Float64Array.from(sizes), sums: Float64Array.from(sums[k]) } })) });
const settings = { reps: 1, attenuation: 1, base: 'b', alt: 's', seed: 1 } as const;

describe('cluster notes read the Table 3 registry', () => {
  it('a registered column is named in the no-interval and match-means notes', () => {
    const unregister = registerTable3Column(ABS);
    try {
      const few = analyzeTwoFraming(table([10, 10], [[3, 4], [6, 7]]), settings).boot.notes.join('\n');
      expect(few).toMatch(/^no interval: .*abs_shift\["M"\].* rest on a cell of fewer than 3 matches$/m);
      const dominated = analyzeTwoFraming(table([60, 2, 3, 1], [[20, 1, 1, 0], [35, 2, 2, 1]]), settings).boot.notes.join('\n');
      expect(dominated).toMatch(/^match means: .*R\["M"\].*shift\["M"\].*abs_shift\["M"\]/m);
    } finally { unregister(); }
    const after = analyzeTwoFraming(table([10, 10], [[3, 4], [6, 7]]), settings).boot.notes.join('\n');
    expect(after).not.toMatch(/abs_shift/);
  });
});

describe('--simultaneous reads the Table 3 registry', () => {
  it('a registered column gets its own sup-t band over the models, and Table 3 shows it', async () => {
    const { readRates } = await import('../../../src/sources/rates-csv.js');
    const { table3Rows } = await import('../../../src/analyses/two-framing/tables.js');
    const { stat } = await import('../../../src/core/names.js');
    const unregister = registerTable3Column(ABS);
    try {
      const t = readRates('data/lore-heydari-2024/rates.csv', { base: 'business', alt: 'friend-sharing' }).table;
      const a = analyzeTwoFraming(t, { reps: 400, attenuation: 0.7, base: 'business', alt: 'friend-sharing', seed: 3, simultaneous: true });
      expect(a.bands!.c.abs_shift).toBeGreaterThan(1.96);
      const model = a.layout.models[0];
      const band = a.bands!.ends.get(stat('abs_shift', model))!;
      const pointwise = a.boot.get(stat('abs_shift', model));
      // a sup-t band over several models is at least as wide as the pointwise interval
      expect(band[1] - band[0]).toBeGreaterThanOrEqual(pointwise.hi - pointwise.lo - 1e-12);
      const row = table3Rows(a).find((r) => r.model === model)!;
      expect([row.abs_shift_lo, row.abs_shift_hi]).toEqual([band[0], band[1]]);
    } finally { unregister(); }
  });
});
