import { describe, expect, it } from 'vitest';
import { fitUnivariate, type MetaTest } from '../../../src/stats/meta/univariate.js';
import { fitMultilevel } from '../../../src/stats/meta/multilevel.js';
import { tau2Interval } from '../../../src/stats/meta/tau2-interval.js';
import { leaveOneOutEffects } from '../../../src/stats/meta/leave-one-out.js';
import { TAU2_METHODS } from '../../../src/stats/meta/tau2.js';
import { close, column, heldOut, intervalsReference, type Row } from './reference.js';

/**
 * samegame's intervals against metafor 3.8 on held-out tables (test/reference/meta/make-reference-intervals.R):
 * Hartung–Knapp with the ad hoc truncation on identical effects, the prediction interval with the
 * conventional SE and t(k − 2) (predict(rma(test = "z"), pi.type = "riley")), the three-level
 * model with containment df (rma.mv dfs = "contain") and its prediction interval, and a table whose
 * variances are all 1e-20. Relative 1e-6.
 */
const ref = intervalsReference;

const TESTS: MetaTest[] = ['adhoc', 'knha', 'z'];
const uniCases = ['identical', 'equal', 'spread', 'tiny'].flatMap((t) => TAU2_METHODS.flatMap((m) => TESTS.map((x) => [t, m, x] as const)));

describe('univariate intervals against metafor on held-out tables', () => {
  it.each(uniCases)('%s %s %s', (name, method, test) => {
    const rows = heldOut(name);
    const y = column(rows, 'yi');
    const v = column(rows, 'vi');
    const fit = fitUnivariate(y, v, { tau2: method, test, pooling: 'random', level: 0.95 })!;
    const r = ref.univariate[name][`${method}_${test}`];
    const c = fit.coefficients[0];
    const got: Record<string, number> = { ...(fit as unknown as Record<string, number>), estimate: c.estimate, se: c.se, ci_lo: c.ci_lo, ci_hi: c.ci_hi, p: c.p };
    // τ² on its boundary (0 in metafor, 0 here) and the huge Q of 1e-20 variances are compared relatively; τ² absolutely to 1e-12.
    for (const f of ['estimate', 'se', 'ci_lo', 'ci_hi', 'p', 'I2', 'Q', 'pi_lo', 'pi_hi']) {
      expect(close(got[f], r[f], 1e-6, 1e-12), `${f}: ${got[f]} vs ${r[f]}`).toBe(true);
    }
    expect(close(fit.tau2, r.tau2, 1e-6, 1e-12), `tau2: ${fit.tau2} vs ${r.tau2}`).toBe(true);
  });

  it('identical effects: the ad hoc interval has positive width, Hartung–Knapp as published collapses to the point', () => {
    const rows = heldOut('identical');
    const s = { tau2: 'REML', pooling: 'random', level: 0.95 } as const;
    const adhoc = fitUnivariate(column(rows, 'yi'), column(rows, 'vi'), { ...s, test: 'adhoc' })!.coefficients[0];
    const knha = fitUnivariate(column(rows, 'yi'), column(rows, 'vi'), { ...s, test: 'knha' })!.coefficients[0];
    expect(adhoc.ci_hi - adhoc.ci_lo).toBeGreaterThan(0.4);
    expect(knha.ci_hi - knha.ci_lo).toBe(0);
  });
});

const fields = ['estimate', 'se', 'df', 'ci_lo', 'ci_hi', 'p', 'logLik', 'pi_lo', 'pi_hi'] as const;

describe('three-level model against rma.mv(dfs = "contain") on held-out tables', () => {
  const group = (rows: Row[]) => { const ids = [...new Set(rows.map((r) => r.study))]; return Int32Array.from(rows, (r) => ids.indexOf(r.study)); };

  it.each(['ml3', 'ml4', 'ml6', 'tiny'])('%s: estimate, t(S − 1) interval, prediction interval, σ²', (name) => {
    const rows = heldOut(name);
    const fit = fitMultilevel(column(rows, 'yi'), column(rows, 'vi'), group(rows))!;
    const r = ref.multilevel[name];
    expect(fit.groups).toBe(r.studies);
    for (const f of fields) expect(close(fit[f], r[f], 1e-6), `${f}: ${fit[f]} vs ${r[f]}`).toBe(true);
    // A variance on its boundary is 0 here and in the reference (make-reference-intervals.R refits it fixed at 0).
    expect(close(fit.sigma2_outer, r.sigma2_outer, 1e-6, 1e-12), `σ²_outer ${fit.sigma2_outer} vs ${r.sigma2_outer}`).toBe(true);
    expect(close(fit.sigma2_inner, r.sigma2_inner, 1e-6, 1e-12), `σ²_inner ${fit.sigma2_inner} vs ${r.sigma2_inner}`).toBe(true);
  });

  it('2 studies: the estimate, its SE and σ² as metafor gives them, but no interval, test or prediction interval', () => {
    const rows = heldOut('ml2');
    const fit = fitMultilevel(column(rows, 'yi'), column(rows, 'vi'), group(rows))!;
    const r = ref.multilevel.ml2;
    for (const f of ['estimate', 'se', 'logLik'] as const) expect(close(fit[f], r[f], 1e-6), f).toBe(true);
    expect(close(fit.sigma2_outer, r.sigma2_outer, 1e-6, 1e-12)).toBe(true);
    for (const f of ['ci_lo', 'ci_hi', 'p', 'pi_lo', 'pi_hi'] as const) expect(fit[f]).toBeNaN();
  });

  it('no study with two cells: not identified, no fit', () => {
    const rows = heldOut('ml4').filter((r, i, all) => all.findIndex((x) => x.study === r.study) === i);
    expect(rows.length).toBe(4);
    expect(fitMultilevel(column(rows, 'yi'), column(rows, 'vi'), group(rows))).toBeUndefined();
  });
});

describe('confidence levels outside (0, 1)', () => {
  it.each([1.5, NaN, -0.1, 0, 1])('level %s is a RangeError', (level) => {
    const rows = heldOut('ml4');
    const [y, v] = [column(rows, 'yi'), column(rows, 'vi')];
    expect(() => fitUnivariate(y, v, { tau2: 'REML', test: 'adhoc', pooling: 'random', level })).toThrow(RangeError);
    expect(() => fitMultilevel(y, v, new Int32Array(y.length), level)).toThrow(RangeError);
  });
});

describe('Q-profile interval of τ², I² and H² against metafor\'s confint(rma(method = "REML"))', () => {
  it.each(['identical', 'spread', 'ml4', 'ml6'])('%s', (name) => {
    const rows = heldOut(name);
    const got = tau2Interval(column(rows, 'yi'), column(rows, 'vi'))!;
    const r = ref.qprofile[name];
    for (const f of ['tau2_lo', 'tau2_hi', 'I2_lo', 'I2_hi', 'H2_lo', 'H2_hi'] as const) {
      expect(close(got[f], r[f], 1e-6, 1e-12), `${f}: ${got[f]} vs ${r[f]}`).toBe(true);
    }
  });
});

describe('leave-one-out diagnostics against metafor\'s leave1out(rma(method = "REML"))', () => {
  it.each([['spread', 'adhoc'], ['spread', 'z'], ['ml6', 'adhoc']] as const)('%s, test %s', (name, test) => {
    const rows = heldOut(name);
    const got = leaveOneOutEffects(column(rows, 'yi'), column(rows, 'vi'), { tau2: 'REML', test, pooling: 'random', level: 0.95 });
    const r = ref.leave1out[`${name}_${test}`];
    expect(got.map((g) => g.left_out)).toEqual(rows.map((_, i) => i));
    for (const f of ['estimate', 'se', 'ci_lo', 'ci_hi', 'tau2', 'I2', 'Q'] as const) {
      got.forEach((g, i) => expect(close(g[f], r[f][i], 1e-6, 1e-12), `${f}[${i}]: ${g[f]} vs ${r[f][i]}`).toBe(true));
    }
  });
});
