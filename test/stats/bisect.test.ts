import { describe, expect, it } from 'vitest';
import { bisect, bisection, bracketAbove } from '../../src/stats/bisect.js';

describe('bisection', () => {
  it('finds √2 as the point where x² < 2 stops holding, to the relative width asked', () => {
    const b = bisection((x) => x * x < 2, 1, 2, { rel: 1e-14 });
    expect(Math.abs(b.x - Math.SQRT2)).toBeLessThanOrEqual(2e-14);
    expect(b.converged).toBe(true);
    // Each halving halves the width 1: about log2(1/(1e-14·√2)) ≈ 46 of them.
    expect(b.iterations).toBe(Math.ceil(Math.log2(1 / (1e-14 * Math.SQRT2))));
  });
  it('stops at maxIter and says it did not converge', () => {
    const b = bisection((x) => x < 0.3, 0, 1, { abs: 1e-12, maxIter: 5 });
    expect(b).toMatchObject({ iterations: 5, converged: false });
    expect(Math.abs(b.x - 0.3)).toBeLessThanOrEqual(1 / 2 ** 6);
  });
  it('an absolute width serves a root at 0, where a relative one never ends', () => {
    expect(Math.abs(bisect((x) => x < 0, -1, 1, { abs: 1e-9 }))).toBeLessThanOrEqual(1e-9);
  });
  it('bracketAbove doubles hi from its start until below fails, raising lo to each hi passed', () => {
    expect(bracketAbove((x) => x < 37, 0, 1)).toEqual({ lo: 32, hi: 64, doublings: 6 });
    expect(bracketAbove((x) => x < 0.5, 0, 1)).toEqual({ lo: 0, hi: 1, doublings: 0 });
    expect(bracketAbove(() => true, 0, 1, 3)).toEqual({ lo: 4, hi: 8, doublings: 3 });
  });
});
