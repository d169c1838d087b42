/**
 * Effect tables a held-out hostile-input campaign fed to the fits (property-based, fast-check):
 * cells whose sampling variance is far below the others'. The fits are continuous in the variances,
 * so a table with one variance at 1e-12·10^-j (j up to 28) must give the REML fit of the same table at
 * 1e-12, where every sum is still exact in double precision (the metafor side of this is
 * test/stats/meta/tiny-variance.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitUnivariate, META_DEFAULTS } from '../../src/stats/meta/univariate.js';

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(b), 1e-3);

const cell = fc.record({ y: fc.double({ min: -1, max: 1, noNaN: true }), v: fc.double({ min: 0.001, max: 0.05, noNaN: true }) });
// The REML fit (estimate, τ², Q) with one variance at 1e-12·10^-j equals the fit at 1e-12, and converged.
const invariant = fc.property(fc.array(cell, { minLength: 3, maxLength: 12 }), fc.nat(), fc.integer({ min: 1, max: 28 }), (cells, at, j) => {
  const i = at % cells.length;
  const y = Float64Array.from(cells, (c) => c.y);
  const v = (tiny: number) => Float64Array.from(cells, (c, k) => (k === i ? tiny : c.v));
  const ref = fitUnivariate(y, v(1e-12), META_DEFAULTS);
  const got = fitUnivariate(y, v(1e-12 * 10 ** -j), META_DEFAULTS);
  expect(got?.tau2Converged && ref?.tau2Converged).toBe(true);
  const pick = (f: NonNullable<typeof ref>) => [f.coefficients[0].estimate, f.tau2, f.Q];
  const [a, b] = [pick(got!), pick(ref!)];
  a.forEach((x, k) => expect(near(x, b[k]), `${['estimate', 'tau2', 'Q'][k]}: ${x} vs ${b[k]}`).toBe(true));
});

describe('one variance far below the others\'', () => {
  // Not the SE: with τ² = 0 it is of the order of the tiny cell's own √v, which is what changes.
  // Near τ² = 0 such a cell makes the restricted likelihood non-concave and plain Fisher scoring cycled there without
  // converging (seed 1 finds six cells, the tiny one at y = −0.0278, the others at 0: τ² 1.4e-4 is the maximum, the fits
  // stopped at 1.38e-4 and 2.2e-5); the bracketed scoring reaches the maximum (test/stats/meta/tiny-variance-reml.test.ts).
  it('the REML fit (estimate, τ², Q) is the fit at 1e-12 (property, the seed that found the cycling)', () => {
    fc.assert(invariant, { numRuns: 150, seed: 1 });
  });
  it('the same on a random seed (FC_SEED to repeat one)', () => {
    fc.assert(invariant, { numRuns: 150, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) });
  });
});
