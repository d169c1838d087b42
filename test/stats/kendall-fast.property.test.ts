import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kendallS } from '../../src/stats/meta/kendall.js';

/** S by its definition, every pair once: the O(n²) reference. */
function pairsS(x: Float64Array, y: Float64Array): number {
  let S = 0;
  for (let i = 0; i < x.length; i++) for (let j = i + 1; j < x.length; j++) S += Math.sign(x[i] - x[j]) * Math.sign(y[i] - y[j]);
  return S;
}

describe('Kendall\'s S in O(n log n)', () => {
  it('equals the sum over all pairs, with ties in x, in y and in both (property)', () => {
    // Few distinct values make ties common; some runs have none.
    const sample = fc.integer({ min: 0, max: 60 }).chain((n) => fc.tuple(
      fc.array(fc.oneof(fc.integer({ min: 0, max: 4 }), fc.double({ min: -1, max: 1, noNaN: true })), { minLength: n, maxLength: n }),
      fc.array(fc.oneof(fc.integer({ min: 0, max: 4 }), fc.double({ min: -1, max: 1, noNaN: true })), { minLength: n, maxLength: n })));
    fc.assert(fc.property(sample, ([xs, ys]) => {
      const x = Float64Array.from(xs), y = Float64Array.from(ys);
      expect(kendallS(x, y)).toBe(pairsS(x, y));
    }), { numRuns: 400 });
  });
  it('a sample of 200,000 (whose pair sum would be 2·10¹⁰ terms): within its bounds, and equal to the pair sum on its first 2,000', () => {
    const n = 200_000;
    const x = Float64Array.from({ length: n }, (_, i) => (i * 7919) % 1000), y = Float64Array.from({ length: n }, (_, i) => (i * 104729) % 997);
    const S = kendallS(x, y);
    // The O(n²) sum on the first 2,000 and the fast one agree there too.
    expect(kendallS(x.subarray(0, 2000), y.subarray(0, 2000))).toBe(pairsS(x.subarray(0, 2000), y.subarray(0, 2000)));
    expect(Math.abs(S)).toBeLessThanOrEqual((n * (n - 1)) / 2);
  });
});
