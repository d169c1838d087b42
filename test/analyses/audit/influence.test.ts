import { describe, expect, it } from 'vitest';
import { POOLED, stat } from '../../../src/core/names.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/analysis.js';
import { ReplicateState } from '../../../src/analyses/audit/replicate-state.js';
import { influence } from '../../../src/analyses/audit/influence.js';
import { pairsTable, settings } from './helpers.js';

describe('influence', () => {
  const rows = [['A', 'G1', 30, 200, 300], ['A', 'G2', 0, 290, 300], ['B', 'G1', 150, 160, 300]] as const;
  const table = pairsTable(rows);
  const s = settings(1500, 0.7);
  const a = analyzeTwoFraming(table, s);
  const inf = influence(new ReplicateState(table, a.layout, { seed: s.seed, reps: s.reps, attenuation: s.attenuation }));

  it('leaving a pair out equals the pipeline on the table without its two cells', () => {
    rows.forEach((_, j) => {
      const without = analyzeTwoFraming(pairsTable(rows.filter((__, k) => k !== j)), s).boot;
      for (const k of ['R', 'shift'] as const) {
        const want = without.get(stat(k, POOLED));
        expect(inf.pairs[j].pooled[k].without).toEqual(want);
        expect(inf.pairs[j].pooled[k].delta.point).toBeCloseTo(want.point - a.boot.get(stat(k, POOLED)).point, 14);
      }
    });
  });
  it('hand check: without B / G1 the pooled raw shift is the mean of A\'s two shifts', () => {
    // A/G1: 170/300, A/G2: 290/300 → mean 230/300; conservative × 0.7.
    expect(inf.pairs[2].pooled.shift.without.point).toBeCloseTo(0.7 * (230 / 300), 14);
    expect(inf.pairs[2].ownModel).toBeUndefined(); // B has no other pair
    expect(inf.pairs[0].ownModel!.shift.without.point).toBeCloseTo(0.7 * (290 / 300), 14);
  });
  it('maps each cell to the pair it removes', () => {
    expect(inf.cells.map((c) => c.removesPair)).toEqual(['A / G1', 'A / G1', 'A / G2', 'A / G2', 'B / G1', 'B / G1']);
  });
});
