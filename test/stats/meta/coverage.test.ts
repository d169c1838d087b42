import { describe, expect, it } from 'vitest';
import { fitUnivariate, type MetaTest } from '../../../src/stats/meta/univariate.js';
import { streamFor } from '../../../src/stats/rng.js';
import { normalQuantile } from '../../../src/stats/normal.js';

/**
 * Why Hartung–Knapp is the default (docs/methods.md §22.3): with 4 games per model, as in Table 3,
 * and real between-game variance, the Wald z interval of a REML fit covers the mean effect far less
 * often than 95 %; Hartung–Knapp's t interval holds it. 2,000 simulated tables (SE of a coverage
 * near 0.95: 0.005), k = 4, μ = 0.3, τ² = 0.02, vᵢ uniform on [0.0005, 0.002] (binomial variances
 * at n ≈ 300). The prediction interval (t, k − 2 df, the conventional SE) is checked against a new true effect.
 */
describe('coverage of the random-effects intervals (simulated)', () => {
  const N = 2000, k = 4, mu = 0.3, tau2 = 0.02;
  const rng = streamFor(11, `sim ${k} ${tau2}`);
  const z = () => normalQuantile(rng.next());
  const hits = { knha: 0, z: 0, pi: 0 };
  for (let s = 0; s < N; s++) {
    const v = Float64Array.from({ length: k }, () => 0.0005 + 0.0015 * rng.next());
    const y = v.map((vi) => mu + Math.sqrt(tau2) * z() + Math.sqrt(vi) * z());
    for (const test of ['knha', 'z'] as const satisfies readonly MetaTest[]) {
      const f = fitUnivariate(y, v, { tau2: 'REML', test, pooling: 'random', level: 0.95 })!;
      const c = f.coefficients[0];
      if (c.ci_lo <= mu && mu <= c.ci_hi) hits[test]++;
      if (test === 'knha') { const next = mu + Math.sqrt(tau2) * z(); if (f.pi_lo <= next && next <= f.pi_hi) hits.pi++; }
    }
  }

  it('Hartung–Knapp covers μ about 95 % of the time (0.946 with this seed)', () => {
    expect(hits.knha / N).toBeGreaterThan(0.93);
    expect(hits.knha / N).toBeLessThan(0.97);
  });
  it('the Wald z interval does not (0.851): below 0.90', () => expect(hits.z / N).toBeLessThan(0.9));
  it('the prediction interval (conventional SE) covers a new effect at least 95 % of the time, within error (0.963)', () => expect(hits.pi / N).toBeGreaterThan(0.94));
});
