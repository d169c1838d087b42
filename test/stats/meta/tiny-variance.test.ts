/**
 * Cells whose sampling variance is 1e-12 to 1e-40 of the others' (test/reference/meta/make-reference-tiny.R):
 * the fits equal metafor's rma (REML: estimate, SE, interval, τ²). Where one tiny cell's weight
 * swamps metafor's own sums (its Q and its DL τ² then drop the tiny cell's share), the values are
 * those of metafor on the same table with the tiny variances raised to 1e-12 in their ratios — the
 * fit is continuous there; with two tiny cells Q truly diverges and metafor's value stands.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fitUnivariate, META_DEFAULTS } from '../../../src/stats/meta/univariate.js';

const ref = JSON.parse(readFileSync(new URL('../../reference/meta/reference-tiny.json', import.meta.url), 'utf8'));
type Fit = { estimate: number; se: number; ci_lo: number; ci_hi: number; tau2: number; Q: number };
const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(b), 1e-3);

describe('sampling variances far below the others\' are pooled as metafor pools them', () => {
  const y = Float64Array.from(ref.y as number[]);
  it.each(Object.keys(ref.v).flatMap((name) => (['REML', 'DL'] as const).map((m) => [name, m] as const)))('%s, %s', (name, method) => {
    const f = fitUnivariate(y, Float64Array.from(ref.v[name] as number[]), { ...META_DEFAULTS, tau2: method, test: 'adhoc' });
    expect(f).toBeDefined();
    const c = f!.coefficients[0];
    const got: Fit = { estimate: c.estimate, se: c.se, ci_lo: c.ci_lo, ci_hi: c.ci_hi, tau2: f!.tau2, Q: f!.Q };
    const direct: Fit = ref.fits[`${name}/${method}`];
    const exact: Fit = ref.fits[`${name}/${method}@1e-12`];
    const one = name.startsWith('one-');
    // REML: metafor's fit itself. DL and Q with one tiny cell: metafor at 1e-12, where its sums are exact.
    const want: Fit = method === 'REML' ? { ...direct, Q: one ? exact.Q : direct.Q } : one ? exact : direct;
    for (const k of ['estimate', 'se', 'ci_lo', 'ci_hi', 'tau2', 'Q'] as const) {
      expect(near(got[k], want[k]), `${k}: ${got[k]} vs ${want[k]}`).toBe(true);
    }
  });
});
