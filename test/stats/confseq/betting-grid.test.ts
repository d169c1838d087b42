import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sequenceBounds } from '../../../src/stats/confseq/intersect.js';
import { startBetting } from '../../../src/stats/confseq/betting.js';

/**
 * The betting sequence finds its grid interval by two binary searches on lazily updated capitals;
 * this oracle updates both capitals at every grid point at every t and scans the whole grid, as
 * the reference implementation does (first and last grid point with max(θK⁺, (1 − θ)K⁻) ≤ 1/α).
 */
function fullScan(x: readonly number[], alpha: number, breaks: number): { lo: number[]; hi: number[] } {
  const step = 1 / breaks, grid = Array.from({ length: breaks + 1 }, (_, k) => k * step);
  const up = grid.map(() => 1), down = grid.map(() => 1);
  const bets = (a: number) => {
    let sum = 0, sq = 0.25, v = 0.25;
    return x.map((xi, i) => {
      const lam = Math.sqrt(2 * Math.log(1 / a) / ((i + 1) * Math.log(2 + i) * v));
      sum += xi;
      const mean = Math.min((0.5 + sum) / (i + 2), 1);
      sq += (xi - mean) ** 2;
      v = sq / (i + 2);
      return lam;
    });
  };
  const lu = bets(alpha / 2), ld = bets(alpha / 2);
  const lo: number[] = [], hi: number[] = [];
  x.forEach((xi, i) => {
    const inside: number[] = [];
    grid.forEach((m, k) => {
      up[k] *= 1 + Math.min(lu[i], 0.5 / m) * (xi - m);
      down[k] *= 1 - Math.min(ld[i], 0.5 / (1 - m)) * (xi - m);
      if (Math.max(up[k] / 2, down[k] / 2) <= 1 / alpha) inside.push(k);
    });
    lo.push(inside.length ? Math.max(0, grid[inside[0]] - step) : 0);
    hi.push(inside.length ? Math.min(1, grid[inside[inside.length - 1]] + step) : 1);
  });
  return { lo, hi };
}

describe('the betting sequence’s binary search over the grid', () => {
  it('equals the full scan of every grid point at every t (raw intervals)', () => {
    const obs = fc.oneof(fc.constantFrom(0, 1, 0.5), fc.double({ min: 0, max: 1, noNaN: true }));
    fc.assert(fc.property(fc.array(obs, { minLength: 1, maxLength: 60 }), fc.constantFrom(0.01, 0.05, 0.2), fc.constantFrom(10, 97, 400),
      (x, alpha, breaks) => {
        const got = sequenceBounds(startBetting({ alpha, breaks, intersect: false }), x);
        const want = fullScan(x, alpha, breaks);
        expect(Array.from(got.lo)).toEqual(want.lo);
        expect(Array.from(got.hi)).toEqual(want.hi);
      }), { numRuns: 150, seed: 44 });
  });
});
