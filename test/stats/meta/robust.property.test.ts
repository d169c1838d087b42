import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitUnivariate, type MetaTest } from '../../../src/stats/meta/univariate.js';
import { fitMultilevel, multilevelLogLik } from '../../../src/stats/meta/multilevel.js';
import { TAU2_METHODS } from '../../../src/stats/meta/tau2.js';

/** Effect tables of 2 to 40 effects with variances over six orders of magnitude, some effects tied. */
const tables = fc.array(fc.tuple(fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.constant(0.25)), fc.double({ min: 1e-6, max: 1, noNaN: true }), fc.nat(4)), { minLength: 2, maxLength: 40 });

describe('the random-effects fits on arbitrary tables', () => {
  it('give τ² ≥ 0, I² in [0, 1], an interval around the estimate, for every estimator and test', () => {
    fc.assert(fc.property(tables, fc.constantFrom(...TAU2_METHODS), fc.constantFrom<MetaTest>('adhoc', 'knha', 'z'), (rows, tau2, test) => {
      const y = Float64Array.from(rows, (r) => r[0]);
      const v = Float64Array.from(rows, (r) => r[1]);
      const f = fitUnivariate(y, v, { tau2, test, pooling: 'random', level: 0.95 })!;
      const c = f.coefficients[0];
      expect(f.tau2).toBeGreaterThanOrEqual(0);
      expect(f.I2).toBeGreaterThanOrEqual(0);
      expect(f.I2).toBeLessThanOrEqual(1);
      expect(Number.isFinite(c.estimate)).toBe(true);
      expect(c.ci_lo).toBeLessThanOrEqual(c.estimate);
      expect(c.ci_hi).toBeGreaterThanOrEqual(c.estimate);
      if (rows.length >= 3) expect(f.pi_hi - f.pi_lo).toBeGreaterThanOrEqual(0);
    }), { numRuns: 300, seed: 30 });
  });

  const title = 'the three-level model (two studies or more, one with two cells) gives σ² ≥ 0, a finite estimate, '
    + 'and a restricted likelihood no point near it or at σ² = 0 beats';
  it(title, () => {
    fc.assert(fc.property(tables, (rows) => {
      const y = Float64Array.from(rows, (r) => r[0]);
      const v = Float64Array.from(rows, (r) => r[1]);
      const ids = [...new Set(rows.map((r) => r[2]))];
      const g = Int32Array.from(rows, (r) => ids.indexOf(r[2]));
      // One study, or no study with two effects, leaves the two σ² unidentified: no fit.
      if (ids.length < 2 || ids.length === rows.length || rows.length < 3) {
        expect(fitMultilevel(y, v, g)).toBeUndefined();
        return;
      }
      const f = fitMultilevel(y, v, g)!;
      expect(f.sigma2_outer).toBeGreaterThanOrEqual(0);
      expect(f.sigma2_inner).toBeGreaterThanOrEqual(0);
      expect(Number.isFinite(f.estimate) && Number.isFinite(f.logLik)).toBe(true);
      // σ² = 0 (the fixed-effect model), by hand: −½[(k − 1) ln 2π − ln k + Σ ln v + ln Σ 1/v + Σ (y − μ)²/v].
      const k = y.length;
      const W = v.reduce((s, x) => s + 1 / x, 0);
      const mu = y.reduce((s, x, i) => s + x / v[i], 0) / W;
      const at0 = -0.5 * ((k - 1) * Math.log(2 * Math.PI) - Math.log(k) + v.reduce((s, x) => s + Math.log(x), 0) + Math.log(W) + y.reduce((s, x, i) => s + (x - mu) ** 2 / v[i], 0));
      expect(f.logLik).toBeGreaterThanOrEqual(at0 - 1e-9 * Math.max(1, Math.abs(at0)));
      expect(multilevelLogLik(y, v, g, 0, 0)).toBeCloseTo(at0, 8);
      // No point of a grid around the estimates is higher.
      for (const a of [0, 0.5, 0.9, 1.1, 2]) for (const b of [0, 0.5, 0.9, 1.1, 2]) {
        const at = multilevelLogLik(y, v, g, a * f.sigma2_outer + (a > 1 ? 1e-4 : 0), b * f.sigma2_inner + (b > 1 ? 1e-4 : 0));
        expect(at).toBeLessThanOrEqual(f.logLik + 1e-9 * Math.max(1, Math.abs(f.logLik)));
      }
    }), { numRuns: 200, seed: 30 });
  });
});
