import { describe, expect, it } from 'vitest';
import { fitUnivariate, type MetaTest } from '../../../src/stats/meta/univariate.js';
import { TAU2_METHODS, type Tau2Method } from '../../../src/stats/meta/tau2.js';
import { interceptOnly } from '../../../src/stats/meta/wls.js';
import { close, column, reference, table, type Row } from './reference.js';

/**
 * samegame's rma.uni against R's metafor 3.8 (test/reference/meta/make-reference.R): three effect
 * tables (τ² = 0; I² > 0.9; with moderators) × REML, DL, PM, ML × adhoc, knha, z. Relative 1e-6; REML and
 * ML 1e-4 (the optimiser's tolerance: both fits run to a step of 1e-12, so they agree far closer).
 */
const designs: Record<string, (rows: Row[]) => readonly Float64Array[]> = {
  homogeneous: (r) => interceptOnly(r.length),
  shipped: (r) => interceptOnly(r.length),
  bcg: (r) => interceptOnly(r.length),
  bcg_ablat: (r) => [...interceptOnly(r.length), column(r, 'ablat')],
  bcg_ablat_alloc: (r) => {
    const levels = [...new Set(r.map((x) => x.alloc))];
    return [...interceptOnly(r.length), column(r, 'ablat'), ...levels.slice(1).map((l) => Float64Array.from(r, (x) => (x.alloc === l ? 1 : 0)))];
  },
};
const fields = ['estimate', 'se', 'ci_lo', 'ci_hi', 'tau2', 'I2', 'H2', 'Q', 'Q_df', 'Q_p', 'pi_lo', 'pi_hi'] as const;
const cases = Object.keys(designs).flatMap((name) => TAU2_METHODS.flatMap((m) => (['adhoc', 'knha', 'z'] as MetaTest[]).map((t) => [name, m, t] as const)));

describe('random-effects model against metafor', () => {
  it.each(cases)('%s %s %s', (name, method, test) => {
    const rows = table(name.startsWith('bcg') ? 'bcg' : name);
    const fit = fitUnivariate(column(rows, 'yi'), column(rows, 'vi'), { tau2: method as Tau2Method, test, pooling: 'random', level: 0.95 }, designs[name](rows))!;
    const ref = reference.univariate[name][`${method}_${test}`];
    const rel = method === 'REML' || method === 'ML' ? 1e-4 : 1e-6;
    const c = fit.coefficients[0];
    const got = { ...fit, estimate: c.estimate, se: c.se, ci_lo: c.ci_lo, ci_hi: c.ci_hi } as unknown as Record<string, number>;
    for (const f of fields) {
      if (f.startsWith('pi') && fit.p > 1) continue;
      expect(close(got[f], ref[f], rel), `${f}: ${got[f]} vs ${ref[f]}`).toBe(true);
    }
    if (fit.p > 1) {
      fit.coefficients.forEach((b, j) => {
        for (const [mine, theirs] of [[b.estimate, ref.b[j]], [b.se, ref.b_se[j]], [b.ci_lo, ref.b_ci_lo[j]], [b.ci_hi, ref.b_ci_hi[j]], [b.p, ref.b_p[j]]]) {
          expect(close(mine, theirs, rel), `coefficient ${j}: ${mine} vs ${theirs}`).toBe(true);
        }
      });
      for (const [mine, theirs] of [[fit.QM, ref.QM], [fit.QM_df1, ref.QM_df1], [fit.QM_p, ref.QM_p]]) expect(close(mine, theirs, rel)).toBe(true);
      if (test === 'knha') expect(fit.QM_df2).toBe(ref.QM_df2);
    }
  });

  it('reaches the expected regimes: τ² = 0, I² > 0.9', () => {
    expect(reference.univariate.homogeneous.REML_knha.tau2).toBe(0);
    expect(reference.univariate.shipped.REML_knha.I2).toBeGreaterThan(0.9);
  });

  it.each(['homogeneous', 'shipped', 'bcg'])('fixed effect: %s', (name) => {
    const rows = table(name);
    const fit = fitUnivariate(column(rows, 'yi'), column(rows, 'vi'), { tau2: 'REML', test: 'z', pooling: 'fixed', level: 0.95 })!;
    const ref = reference.fixed[name];
    const c = fit.coefficients[0];
    const got = { ...fit, estimate: c.estimate, se: c.se, ci_lo: c.ci_lo, ci_hi: c.ci_hi } as unknown as Record<string, number>;
    for (const f of ['estimate', 'se', 'ci_lo', 'ci_hi', 'Q', 'Q_p', 'I2', 'H2']) expect(close(got[f], ref[f], 1e-6), f).toBe(true);
  });
});
