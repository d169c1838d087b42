/**
 * REML fits whose restricted likelihood is not concave near τ² = 0 (one cell's variance far below the
 * others' and its effect away from theirs; test/reference/meta/make-reference-tiny-reml.R): Fisher
 * scoring overshoots and cycles there — metafor's rma stops with "did not converge" on some of these
 * tables, or short of the maximum at its default threshold. The fit reaches the maximum of the
 * likelihood (the root of its derivative, found in R) and equals metafor's rma at that τ², at 1e-12
 * and at 1e-18 alike; Q is metafor's at 1e-12, where its sums still hold the tiny cell.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fitUnivariate, META_DEFAULTS } from '../../../src/stats/meta/univariate.js';

type Case = { y: number[]; v: number[]; tau2: number; estimate: number; se: number; ci_lo: number; ci_hi: number; Q: number };
const ref: Record<string, Case> = JSON.parse(readFileSync(new URL('../../reference/meta/reference-tiny-reml.json', import.meta.url), 'utf8'));
const near = (a: number, b: number, tol = 1e-6) => Math.abs(a - b) <= tol * Math.max(Math.abs(b), 1e-3);

describe('REML where Fisher scoring overshoots (a tiny variance near τ² = 0)', () => {
  it.each(Object.keys(ref))('%s', (name) => {
    const c = ref[name];
    const f = fitUnivariate(Float64Array.from(c.y), Float64Array.from(c.v), { ...META_DEFAULTS, test: 'adhoc' });
    expect(f?.tau2Converged).toBe(true);
    const b = f!.coefficients[0];
    const q = ref[name.replace(/@.*/, '@9.9999999999999998e-13')].Q;
    const got = { tau2: f!.tau2, estimate: b.estimate, se: b.se, ci_lo: b.ci_lo, ci_hi: b.ci_hi, Q: f!.Q };
    const want = { tau2: c.tau2, estimate: c.estimate, se: c.se, ci_lo: c.ci_lo, ci_hi: c.ci_hi, Q: q };
    for (const k of Object.keys(want) as (keyof typeof want)[]) expect(near(got[k], want[k]), `${k}: ${got[k]} vs ${want[k]}`).toBe(true);
  });
});
