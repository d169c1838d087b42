import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defaultBatches, mcErrorOfQuantile } from '../../src/stats/mc-error.js';
import { quantileSorted } from '../../src/stats/quantile.js';
import { streamFor } from '../../src/stats/rng.js';

describe('mcErrorOfQuantile', () => {
  it('matches a hand computation', () => {
    // Batches [1..4] and [5..8]: medians 2.5 and 6.5; sd = √8; se = √8/√2 = 2; full median 4.5.
    const m = mcErrorOfQuantile([1, 2, 3, 4, 5, 6, 7, 8], 0.5, 2);
    expect(m.batchEstimates).toEqual([2.5, 6.5]);
    expect(m.estimate).toBe(4.5);
    expect(m.se).toBeCloseTo(2, 12);
    expect(m.repsNeeded).toBe(32_000_000); // 8 · (2 / 0.001)²
  });
  it('is zero for constant replicates (a degenerate statistic)', () => {
    const m = mcErrorOfQuantile(new Float64Array(1000).fill(0.3), 0.975, 10);
    expect(m.se).toBe(0);
    expect(m.repsNeeded).toBe(1);
  });
  it('recovers the known standard error of a normal 97.5 % quantile', () => {
    // Asymptotic SE of the q-quantile from B draws: √(q(1−q)/B) / φ(z_q); q = 0.975, B = 10,000 → 0.026713.
    const B = 10_000, seeds = 40;
    let sum = 0;
    for (let s = 0; s < seeds; s++) {
      const rng = streamFor(s, 'normal');
      const x = new Float64Array(B);
      for (let i = 0; i < B; i += 2) {
        const u = 1 - rng.next(), v = rng.next();
        const r = Math.sqrt(-2 * Math.log(u));
        x[i] = r * Math.cos(2 * Math.PI * v);
        x[i + 1] = r * Math.sin(2 * Math.PI * v);
      }
      sum += mcErrorOfQuantile(x, 0.975, 20).se;
    }
    expect(sum / seeds).toBeGreaterThan(0.026713 * 0.9);
    expect(sum / seeds).toBeLessThan(0.026713 * 1.1);
  });
  it('chooses batches and rejects bad arguments', () => {
    expect(defaultBatches(10_000)).toBe(20);
    expect(defaultBatches(1000)).toBe(5);
    expect(defaultBatches(100)).toBe(2);
    expect(() => mcErrorOfQuantile([1, 2, 3], 0.5, 1)).toThrow(RangeError);
    expect(() => mcErrorOfQuantile([1], 0.5, 2)).toThrow(RangeError);
  });
});

describe('mcErrorOfQuantile by selection', () => {
  // The reference: sort each sample (Float64Array order: NaN last) and interpolate with quantileSorted.
  const reference = (xs: Float64Array, q: number, k: number) => {
    const size = Math.floor(xs.length / k);
    return [quantileSorted(xs.slice().sort(), q), ...Array.from({ length: k }, (_, b) => quantileSorted(xs.slice(b * size, (b + 1) * size).sort(), q))];
  };
  it('gives the sorted reference bit for bit, ties, signed zeros and NaN included', () => {
    const value = fc.oneof(fc.double({ noDefaultInfinity: true }), fc.constantFrom(0, -0, 1, 0.5, NaN), fc.integer({ min: -3, max: 3 }));
    fc.assert(fc.property(fc.array(value, { minLength: 4, maxLength: 300 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 2, max: 4 }),
      (xs, q, k) => {
        const a = Float64Array.from(xs);
        const r = mcErrorOfQuantile(a, q, k);
        const want = reference(a, q, k);
        expect([r.estimate, ...r.batchEstimates].map((x) => Object.is(x, -0) ? '-0' : x)).toEqual(want.map((x) => Object.is(x, -0) ? '-0' : x));
      }), { numRuns: 500 });
  });
});
