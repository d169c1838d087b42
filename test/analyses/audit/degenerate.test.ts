import { describe, expect, it } from 'vitest';
import { clopperPearsonBoundary, degenerateCells } from '../../../src/analyses/audit/degenerate.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/analysis.js';
import { pairsTable, settings } from './helpers.js';

describe('clopperPearsonBoundary', () => {
  // Hand values: 1 − 0.025^(1/n); 0/10 → 0.3085 is the tabulated Clopper–Pearson upper limit.
  it('0/n gives [0, 1 − (α/2)^(1/n)]', () => {
    expect(clopperPearsonBoundary(0, 300).hi).toBeCloseTo(0.0122209747, 9);
    expect(clopperPearsonBoundary(0, 300).lo).toBe(0);
    expect(clopperPearsonBoundary(0, 10).hi).toBeCloseTo(0.3084971078, 9);
    expect(clopperPearsonBoundary(0, 1)).toEqual({ lo: 0, hi: 0.975 });
  });
  it('n/n gives [(α/2)^(1/n), 1]', () => {
    expect(clopperPearsonBoundary(300, 300).lo).toBeCloseTo(0.9877790253, 9);
    expect(clopperPearsonBoundary(300, 300).hi).toBe(1);
    expect(clopperPearsonBoundary(1, 1).lo).toBeCloseTo(0.025, 15);
  });
  it('rejects interior counts and bad n', () => {
    expect(() => clopperPearsonBoundary(3, 10)).toThrow(RangeError);
    expect(() => clopperPearsonBoundary(0, 0)).toThrow(RangeError);
  });
});

describe('degenerateCells', () => {
  it('lists 0/n and n/n cells with the exact interval beside the collapsed one', () => {
    const t = pairsTable([['M', 'G1', 0, 150, 300], ['M', 'G2', 150, 300, 300], ['M', 'G3', 100, 200, 300]]);
    const d = degenerateCells(analyzeTwoFraming(t, settings(200)));
    expect(d.map((x) => `${x.game}/${x.framing}`)).toEqual(['G1/business', 'G2/friend-sharing']);
    expect(d[0].bootstrap).toEqual({ lo: 0, hi: 0 });
    expect(d[0].exact.hi).toBeCloseTo(0.0122209747, 9);
    expect(d[1].bootstrap).toEqual({ lo: 1, hi: 1 });
    // G1 with the base at its exact upper bound: shift = 0.5 − 0.01222…
    expect(d[0].pairAtExactBound.shift).toBeCloseTo(0.5 - 0.0122209747, 9);
    expect(d[0].pairAtExactBound.shiftObserved).toBeCloseTo(0.5, 12);
  });
});
