import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { extremeIndices, quantileOfUpdate, quantileSorted, quantilesUnsorted, tailQuantiles, updateQuantileSide } from '../../src/stats/quantile.js';

// Expected values: numpy.percentile(x, 100·q) with the default linear method, by hand:
// h = (N−1)·q, value = x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
describe('quantileSorted (linear interpolation, numpy default)', () => {
  const x = [1, 2, 4, 8, 16];
  it('hits the order statistics at their levels', () => {
    expect(quantileSorted(x, 0)).toBe(1);
    expect(quantileSorted(x, 0.5)).toBe(4);
    expect(quantileSorted(x, 1)).toBe(16);
  });
  it('interpolates between them: q = 0.025 → h = 0.1 → 1.1; q = 0.975 → h = 3.9 → 15.2', () => {
    expect(quantileSorted(x, 0.025)).toBeCloseTo(1.1, 14);
    expect(quantileSorted(x, 0.975)).toBeCloseTo(15.2, 14);
  });
  it('handles one and zero values', () => {
    expect(quantileSorted([3], 0.3)).toBe(3);
    expect(quantileSorted([], 0.5)).toBeNaN();
  });
  it('rejects a level outside [0, 1]', () => {
    expect(() => quantileSorted(x, 1.5)).toThrow(RangeError);
    expect(() => quantileSorted(x, -0.1)).toThrow(RangeError);
  });
});

describe('quantilesUnsorted (selection) equals quantileSorted on a sorted copy', () => {
  it('on random, tied, lattice and NaN-bearing samples', async () => {
    const { quantilesUnsorted } = await import('../../src/stats/quantile.js');
    const { streamFor } = await import('../../src/stats/rng.js');
    const r = streamFor(3, 'q');
    const samples: Float64Array[] = [
      Float64Array.from({ length: 10_000 }, () => r.next()),
      Float64Array.from({ length: 999 }, () => Math.floor(r.next() * 7) / 7),
      Float64Array.from({ length: 50 }, () => 1),
      Float64Array.from([3, 1, 2]),
      Float64Array.from([5]),
    ];
    for (const s of samples) {
      const sorted = s.slice().sort();
      const qs = [0, 0.025, 0.5, 0.975, 1];
      const got = quantilesUnsorted(s.slice(), qs);
      qs.forEach((q, i) => expect(got[i]).toEqual(quantileSorted(sorted, q)));
    }
  });
  it('a sample with NaN has NaN quantiles; empty gives NaN', async () => {
    const { quantilesUnsorted } = await import('../../src/stats/quantile.js');
    expect(quantilesUnsorted(Float64Array.from([0.2, NaN, 0.1]), [0.5])).toEqual([NaN]);
    expect(quantilesUnsorted(new Float64Array(0), [0.5])).toEqual([NaN]);
  });
});

describe('quantileOfUpdate: the quantile of f(base − sub + add) in one pass', () => {
  // Reference: form the values, apply f to each, select (the exact path the audit uses).
  const reference = (b: Float64Array, s: Float64Array, a: Float64Array, q: number, f: (x: number) => number) =>
    quantilesUnsorted(Float64Array.from(b, (v, r) => f(v - s[r] + a[r])), [q])[0];
  // Equal as numbers, NaN included: selection cannot tell −0 from +0 (they compare equal), so which
  // of a tie the heap or the partition returns decides the sign of a zero quantile. The audit only
  // compares scan values and re-reads the chosen table exactly, so the sign never reaches a file.
  const same = (got: number, want: number) => expect(got + 0).toBe(want + 0);
  const column = (n: number) => fc.array(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -10, max: 10, noNaN: true })), { minLength: n, maxLength: n });
  const cases = fc.integer({ min: 1, max: 200 }).chain((n) => fc.tuple(column(n), column(n), column(n),
    fc.oneof(fc.constantFrom(0, 0.025, 0.5, 0.975, 1), fc.double({ min: 0, max: 1, noNaN: true }))));

  it('equals the transform-then-select quantile for weakly increasing transforms, ties and both tails', () => {
    const transforms = [(x: number) => x, (x: number) => 0.7 * (x / 12), (x: number) => 1 - 0.7 * (1 - x / 3), (x: number) => Math.floor(x)];
    fc.assert(fc.property(cases, ([b, s, a, q]) => {
      const [B, S, A] = [b, s, a].map((c) => Float64Array.from(c));
      for (const f of transforms) same(quantileOfUpdate(B, S, A, q, f), reference(B, S, A, q, f));
    }), { numRuns: 300 });
  });

  it('gives the same value when told which indices to read first (any K distinct indices)', () => {
    fc.assert(fc.property(cases, fc.boolean(), ([b, s, a, q], fromBase) => {
      const [B, S, A] = [b, s, a].map((c) => Float64Array.from(c));
      const { low, K } = updateQuantileSide(B.length, q);
      // the extremes of the base (what the audit passes) or of an unrelated column
      const start = extremeIndices(fromBase ? B : A, low, K);
      expect(new Set(start.indices).size).toBe(K);
      same(quantileOfUpdate(B, S, A, q, (x) => x, start), reference(B, S, A, q, (x) => x));
    }), { numRuns: 300 });
  });

  it('is NaN when a value is NaN, wherever it lies', () => {
    fc.assert(fc.property(cases, fc.nat(), ([b, s, a, q], at) => {
      const B = Float64Array.from(b);
      B[at % B.length] = NaN;
      expect(quantileOfUpdate(B, Float64Array.from(s), Float64Array.from(a), q, (x) => x)).toBeNaN();
      // also when told to read first the extremes of a sum that holds the NaN
      const { low, K } = updateQuantileSide(B.length, q);
      expect(quantileOfUpdate(B, Float64Array.from(s), Float64Array.from(a), q, (x) => x, extremeIndices(B, low, K))).toBeNaN();
    }), { numRuns: 200 });
  });

  it('reads the order statistics by hand: 2.5 % of 0..399 shifted by one', () => {
    // x_r = r + 1 for r = 0..399: h = 399 · 0.025 = 9.975, between x_(9) = 10 and x_(10) = 11 → 10.975.
    const n = 400;
    const base = Float64Array.from({ length: n }, (_, r) => (r * 7919) % n); // a permutation of 0..399
    const sub = new Float64Array(n), add = new Float64Array(n).fill(1);
    expect(quantileOfUpdate(base, sub, add, 0.025, (x) => x)).toBeCloseTo(10.975, 12);
    expect(quantileOfUpdate(base, sub, add, 0.975, (x) => x)).toBeCloseTo(390.025, 12);
  });
});

describe('tailQuantiles', () => {
  // The reference: sort a copy and interpolate with quantileSorted (d3-array).
  const sorted = (xs: Float64Array, q: number) => quantileSorted(Float64Array.from(xs).sort(), q);
  it('equals the sorted reference bit for bit, in either tail, on ties and lattices', () => {
    const value = fc.oneof(fc.double({ noDefaultInfinity: true, noNaN: true }), fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, 0.25));
    const level = fc.oneof(fc.double({ min: 0, max: 0.1, noNaN: true }), fc.double({ min: 0.9, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }));
    fc.assert(fc.property(fc.array(value, { minLength: 1, maxLength: 400 }), fc.array(level, { minLength: 1, maxLength: 3 }), (xs, qs) => {
      const a = Float64Array.from(xs);
      const got = tailQuantiles(Float64Array.from(a), qs);
      qs.forEach((q, i) => expect(got[i] === sorted(a, q)).toBe(true));
    }), { numRuns: 1500 });
  });
  it('NaN anywhere gives NaN; an empty sample NaN; a level outside [0, 1] is an error', () => {
    const a = Float64Array.from({ length: 1000 }, (_, i) => i);
    a[700] = NaN;
    expect(tailQuantiles(a, [0.02, 0.03])).toEqual([NaN, NaN]);
    expect(tailQuantiles(a, [0.98])).toEqual([NaN]);
    expect(tailQuantiles(a, [0.02, 0.98])).toEqual([NaN, NaN]);
    expect(tailQuantiles(new Float64Array(0), [0.5])).toEqual([NaN]);
    expect(() => tailQuantiles(a, [1.5])).toThrow(RangeError);
  });
});
