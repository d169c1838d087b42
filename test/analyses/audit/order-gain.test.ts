import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { edgeGain, enumeratedGain } from '../../../src/analyses/audit/order-gain.js';
import { robustness2 } from '../../../src/stats/jsd.js';

/**
 * The edge method (ends of each edge for lowering R2, a ternary search for raising it) must give
 * the same best gain for every budget as enumerating every table within the budget — the
 * independent reference here — on arbitrary pairs, counts and budgets, including counts at 0/n.
 */
describe('order tipping: best gain of a pair per budget', () => {
  const pair = fc.record({ nb: fc.integer({ min: 1, max: 80 }), ns: fc.integer({ min: 1, max: 80 }), fb: fc.double({ min: 0, max: 1, noNaN: true }), fs: fc.double({ min: 0, max: 1, noNaN: true }) })
    .map(({ nb, ns, fb, fs }) => ({ b: 0, s: 1, nb, ns, x0b: Math.round(fb * nb), x0s: Math.round(fs * ns) }));

  it('edges give the enumerated maximum for every c (both directions)', () => {
    fc.assert(fc.property(pair, fc.constantFrom(1 as const, -1 as const), fc.integer({ min: 1, max: 40 }), (p, sign, cmax) => {
      const e = enumeratedGain(p, sign, 1, cmax, robustness2), g = edgeGain(p, sign, 1, cmax, 1, robustness2);
      for (let c = 0; c <= cmax; c++) {
        expect(g.gain[c]).toBeCloseTo(e.gain[c], 12);
        // the counts it names reach that gain with at most c changes
        expect(Math.abs(g.xb[c] - p.x0b) + Math.abs(g.xs[c] - p.x0s)).toBeLessThanOrEqual(c);
        expect(sign * (robustness2(g.xb[c] / p.nb, g.xs[c] / p.ns) - robustness2(p.x0b / p.nb, p.x0s / p.ns))).toBeCloseTo(g.gain[c], 12);
      }
    }), { numRuns: 300 });
  });

  it('on a grid of u counts, entry k is the best with at most k·u changes among multiples of u, never above the exact best', () => {
    fc.assert(fc.property(pair, fc.constantFrom(1 as const, -1 as const), fc.integer({ min: 2, max: 5 }), (p, sign, u) => {
      const cmax = 10 * u;
      const e = enumeratedGain(p, sign, 1, cmax, robustness2), g = edgeGain(p, sign, 1, cmax, u, robustness2);
      expect(g.gain.length).toBe(11);
      for (let k = 0; k <= 10; k++) expect(g.gain[k]).toBeLessThanOrEqual(e.gain[k * u] + 1e-12);
    }), { numRuns: 200 });
  });

  it('by hand: 5/10 vs 5/10 cannot raise R2 (already 1), and one change lowers it to R2(0.4, 0.5)', () => {
    const p = { b: 0, s: 1, nb: 10, ns: 10, x0b: 5, x0s: 5 };
    expect(edgeGain(p, 1, 1, 3, 1, robustness2).gain[3]).toBe(0);
    expect(edgeGain(p, -1, 1, 1, 1, robustness2).gain[1]).toBeCloseTo(1 - robustness2(0.4, 0.5), 15);
  });
});
