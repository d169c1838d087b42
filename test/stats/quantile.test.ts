import { describe, expect, it } from 'vitest';
import { quantileSorted } from '../../src/stats/quantile.js';

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
