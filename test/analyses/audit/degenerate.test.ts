import { describe, expect, it } from 'vitest';
import { degenerateCells } from '../../../src/analyses/audit/degenerate.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/analysis.js';
import { pairsTable, settings } from './helpers.js';

describe('degenerateCells', () => {
  it('lists 0/n and n/n cells with the exact interval beside the collapsed one', () => {
    const t = pairsTable([['M', 'G1', 0, 150, 300], ['M', 'G2', 150, 300, 300], ['M', 'G3', 100, 200, 300]]);
    const d = degenerateCells(analyzeTwoFraming(t, settings(200)));
    expect(d.map((x) => `${x.game}/${x.framing}`)).toEqual(['G1/business', 'G2/friend-sharing']);
    expect(d[0].bootstrap).toEqual({ lo: 0, hi: 0 });
    // Hand value 1 − 0.025^(1/300); the exact interval of n/n is its mirror.
    expect(d[0].exact).toEqual({ lo: 0, hi: 1 - 0.025 ** (1 / 300) });
    expect(d[0].exact.hi).toBeCloseTo(0.0122209747, 9);
    expect(d[1].exact).toEqual({ lo: 0.025 ** (1 / 300), hi: 1 });
    expect(d[1].bootstrap).toEqual({ lo: 1, hi: 1 });
    // G1 with the base at its exact upper bound: shift = 0.5 − 0.01222…
    expect(d[0].pairAtExactBound.shift).toBeCloseTo(0.5 - 0.0122209747, 9);
    expect(d[0].pairAtExactBound.shiftObserved).toBeCloseTo(0.5, 12);
  });
});
