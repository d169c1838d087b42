import { describe, expect, it } from 'vitest';
import { POOLED, stat } from '../../../src/core/names.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/analysis.js';
import { attenuationSweep, CAMERER_2016_RATIO, SWEEP_GRID } from '../../../src/analyses/audit/attenuation.js';
import { pairsTable, settings } from './helpers.js';

describe('attenuationSweep', () => {
  const table = pairsTable([['A', 'G1', 30, 200, 300], ['A', 'G2', 0, 290, 300], ['B', 'G1', 150, 160, 300]]);
  const a = analyzeTwoFraming(table, settings(1500, 0.7));
  const rows = attenuationSweep(a);

  it('covers 0.50 … 1.00 in steps of 0.05 plus the 0.66 reference', () => {
    expect(SWEEP_GRID).toEqual([0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1]);
    expect([...new Set(rows.map((r) => r.attenuation))]).toEqual([0.5, 0.55, 0.6, 0.65, 0.66, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1]);
    expect(rows.find((r) => r.attenuation === 0.7)!.marks).toEqual(['default', 'selected']);
    expect(rows.find((r) => r.attenuation === CAMERER_2016_RATIO)!.marks).toEqual(['reference']);
  });
  it('equals re-running the pipeline at each attenuation (same replicates)', () => {
    for (const att of [0.5, 0.66, 1]) {
      const b = analyzeTwoFraming(table, settings(1500, att)).boot;
      for (const g of ['A', 'B', POOLED]) {
        const r = rows.find((x) => x.attenuation === att && x.group === g)!;
        for (const [k, v] of [['R', r.values.R], ['shift', r.values.shift]] as const) {
          const want = b.get(stat(k, g));
          expect(v.point).toBeCloseTo(want.point, 12);
          expect(v.lo).toBeCloseTo(want.lo, 12);
          expect(v.hi).toBeCloseTo(want.hi, 12);
        }
      }
    }
  });
});
