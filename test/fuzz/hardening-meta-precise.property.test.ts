/**
 * Tables with a few very precise studies, not extreme (1–5 variances 1e3 to 1e7 times below the typical one, as a
 * handful of large trials among small ones): the fit is the QR fit (test/stats/meta/qr-reference.ts) — coefficients,
 * (X′WX)⁻¹, Q_E and the traces of P — for an Egger design [1, √v] (the precise rows nearly parallel), a continuous and a
 * categorical moderator. The heavy-row split, once taken from 1e4 on, missed the Egger tables by up to 1e-4 (and 1e+2
 * at 1e7); the metafor side of this is test/stats/meta/precise-few.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { traces, weightedSum, wls } from '../../src/stats/meta/wls.js';
import { qrFit } from '../stats/meta/qr-reference.js';

const table = fc.record({
  light: fc.array(fc.record({ y: fc.double({ min: -0.5, max: 0.5, noNaN: true }), v: fc.double({ min: 0.01, max: 0.2, noNaN: true }),
    x: fc.integer({ min: 0, max: 100 }) }), { minLength: 10, maxLength: 25 }),
  precise: fc.array(fc.record({ y: fc.double({ min: -0.5, max: 0.5, noNaN: true }), log10ratio: fc.double({ min: 3, max: 7, noNaN: true }),
    x: fc.integer({ min: 0, max: 100 }) }), { minLength: 1, maxLength: 5 }),
  design: fc.constantFrom('egger', 'continuous', 'categorical'),
});

describe('meta-regression with a few precise studies (ratios 1e3 to 1e7)', () => {
  it('is the QR fit: coefficients, covariance, Q_E, tr P and tr PP (property)', () => {
    fc.assert(fc.property(table, ({ light, precise, design }) => {
      const sorted = light.map((c) => c.v).sort((a, b) => a - b);
      const median = sorted[Math.floor((sorted.length - 1) / 2)];
      const cells = [...light, ...precise.map((c) => ({ y: c.y, v: median / 10 ** c.log10ratio, x: c.x }))];
      const y = Float64Array.from(cells, (c) => c.y);
      const w = Float64Array.from(cells, (c) => 1 / c.v);
      const x = Float64Array.from(cells, (c) => (design === 'egger' ? Math.sqrt(c.v) : design === 'categorical' ? Math.floor(c.x / 25) : c.x / 100));
      fc.pre(new Set(x.subarray(0, light.length)).size > 1);
      const X = [new Float64Array(y.length).fill(1), x];
      const f = wls(y, X, w);
      expect(f).toBeDefined();
      const ref = qrFit(y, X, w);
      const se = ref.A.map((row, j) => Math.sqrt(row[j]));
      ref.beta.forEach((b, j) => expect(Math.abs(f!.beta[j] - b) <= 1e-6 * se[j], `b${j} ${f!.beta[j]} vs ${b}`).toBe(true));
      ref.A.forEach((row, a) => row.forEach((v, b) => expect(Math.abs(f!.A[a][b] - v) <= 1e-6 * se[a] * se[b], `A${a}${b}`).toBe(true)));
      const QE = weightedSum(f!, 1, 2);
      expect(Math.abs(QE - ref.QE) <= 1e-6 * Math.max(1, ref.QE), `QE ${QE} vs ${ref.QE}`).toBe(true);
      const t = traces(f!, X);
      expect(Math.abs(t.P - ref.trP) <= 1e-5 * ref.trP, `tr P ${t.P} vs ${ref.trP}`).toBe(true);
      expect(Math.abs(t.PP - ref.trPP) <= 1e-5 * ref.trPP, `tr PP ${t.PP} vs ${ref.trPP}`).toBe(true);
    }), { numRuns: 400, seed: 53 });
  });
});
