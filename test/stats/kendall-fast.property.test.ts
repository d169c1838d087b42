import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXACT_MAX, kendallS, kendallTest } from '../../src/stats/meta/kendall.js';
import { normalCdf } from '../../src/stats/normal.js';

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

/** τ_b and the tie-corrected normal p by their definitions (Kendall 1970, ch. 4): tied pairs counted pair by pair, groups by value. */
function byDefinition(x: Float64Array, y: Float64Array): { tau: number; p: number } {
  const n = x.length;
  let tiedX = 0, tiedY = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) { tiedX += x[i] === x[j] ? 1 : 0; tiedY += y[i] === y[j] ? 1 : 0; }
  const groups = (a: Float64Array) => { const m = new Map<number, number>(); for (const v of a) m.set(v, (m.get(v) ?? 0) + 1); return [...m.values()]; };
  const sum = (ts: number[], f: (t: number) => number) => ts.reduce((s, t) => s + f(t), 0);
  const [gx, gy] = [groups(x), groups(y)];
  const S = pairsS(x, y);
  const T0 = (n * (n - 1)) / 2;
  const varS = (n * (n - 1) * (2 * n + 5) - sum(gx, (t) => t * (t - 1) * (2 * t + 5)) - sum(gy, (t) => t * (t - 1) * (2 * t + 5))) / 18
    + (sum(gx, (t) => t * (t - 1)) * sum(gy, (t) => t * (t - 1))) / (2 * n * (n - 1))
    + (sum(gx, (t) => t * (t - 1) * (t - 2)) * sum(gy, (t) => t * (t - 1) * (t - 2))) / (9 * n * (n - 1) * (n - 2));
  const z = S / Math.sqrt(varS);
  return { tau: S / Math.sqrt((T0 - tiedX) * (T0 - tiedY)), p: 2 * Math.min(normalCdf(z), normalCdf(-z)) };
}

describe('Kendall\'s test with ties: the tie groups from the walks that count S', () => {
  it('τ_b and the normal p equal their definitions (property)', () => {
    const value = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.double({ min: -1, max: 1, noNaN: true }));
    const sample = fc.integer({ min: 3, max: 40 }).chain((n) => fc.tuple(fc.array(value, { minLength: n, maxLength: n }), fc.array(value, { minLength: n, maxLength: n })));
    fc.assert(fc.property(sample, ([xs, ys]) => {
      const x = Float64Array.from(xs), y = Float64Array.from(ys);
      const got = kendallTest(x, y);
      const want = byDefinition(x, y);
      const ties = new Set(xs).size < xs.length || new Set(ys).size < ys.length;
      expect(got.exact).toBe(!ties && x.length <= EXACT_MAX);
      if (Number.isNaN(want.tau)) expect(got.tau).toBeNaN();
      else expect(Math.abs(got.tau - want.tau)).toBeLessThanOrEqual(1e-12);
      if (!got.exact && Number.isFinite(want.p)) expect(Math.abs(got.p - want.p)).toBeLessThanOrEqual(1e-12);
    }), { numRuns: 400 });
  });
});
