import { describe, expect, it } from 'vitest';
import { multilevelIntervals } from '../../../src/stats/meta/multilevel-profile.js';
import { influenceDiagnostics } from '../../../src/stats/meta/influence.js';
import { petPeese, ranktest, regtest, REGTEST_PREDICTORS } from '../../../src/stats/meta/small-study.js';
import { trimfill } from '../../../src/stats/meta/trimfill.js';
import { fitMultilevelRegression } from '../../../src/stats/meta/multilevel-regression.js';
import type { MetaTest } from '../../../src/stats/meta/univariate.js';
import { anyTable, close, column, synthesisReference as ref, type Row } from './reference.js';

/**
 * samegame's heterogeneity intervals, influence diagnostics, small-study tests and three-level
 * meta-regression against metafor 3.8 (test/reference/meta/make-reference-synthesis.R).
 */
const group = (rows: Row[]) => { const ids = [...new Set(rows.map((r) => r.study))]; return Int32Array.from(rows, (r) => ids.indexOf(r.study)); };

describe('profile-likelihood intervals of σ²_study and σ²_cell against confint(rma.mv)', () => {
  it.each(['ml3', 'ml4', 'ml6', 'mlreg', 'konstantopoulos'])('%s', (name) => {
    const rows = anyTable(name);
    const got = multilevelIntervals(column(rows, 'yi'), column(rows, 'vi'), group(rows))!;
    const r = ref.profile[name];
    // metafor's nlminb stops about 1e-11 short of a boundary at 0; its root search is to 1e-12 (control tol).
    const cmp = (a: number, b: number, f: string) => expect(close(a, b, 1e-5, 1e-9), `${name} ${f}: ${a} vs ${b}`).toBe(true);
    cmp(got.sigma2_outer.estimate, r.sigma2_outer, 'σ²_outer');
    cmp(got.sigma2_inner.estimate, r.sigma2_inner, 'σ²_inner');
    cmp(got.sigma2_outer.lo, r.outer_lo, 'outer lo');
    cmp(got.sigma2_outer.hi, r.outer_hi, 'outer hi');
    cmp(got.sigma2_inner.lo, r.inner_lo, 'inner lo');
    cmp(got.sigma2_inner.hi, r.inner_hi, 'inner hi');
    expect(got.sigma2_outer.hi_at_limit || got.sigma2_inner.hi_at_limit).toBe(false);
  });
});

/** The shipped table with its total sample sizes (2n), as make-reference-synthesis.R uses it. */
const rowsOf = (name: string): Row[] => (name === 'shipped' ? anyTable(name).map((r) => ({ ...r, ni: String(2 * Number(r.n)) })) : anyTable(name));
const settings = (test: MetaTest) => ({ tau2: 'REML', test, pooling: 'random', level: 0.95 }) as const;

describe('influence diagnostics against influence(rma) and baujat(rma)', () => {
  it.each(['spread_adhoc', 'spread_z', 'egger2001_z', 'egger2001_knha', 'shipped_adhoc', 'asym20_adhoc'])('%s', (key) => {
    const [name, test] = key.split('_') as [string, MetaTest];
    const rows = rowsOf(name);
    const got = influenceDiagnostics(column(rows, 'yi'), column(rows, 'vi'), settings(test))!;
    const r = ref.influence[key];
    const fields = [['rstudent', 'rstudent'], ['dffits', 'dffits'], ['cook_d', 'cook_d'], ['cov_r', 'cov_r'], ['tau2_del', 'tau2_del'],
      ['QE_del', 'QE_del'], ['hat', 'hat'], ['weight', 'weight'], ['baujat_x', 'baujat_x'], ['baujat_y', 'baujat_y']] as const;
    for (const [f, rf] of fields) got.forEach((g, i) => expect(close(g[f], r[rf][i], 1e-6, 1e-10), `${f}[${i}]: ${g[f]} vs ${r[rf][i]}`).toBe(true));
    expect(got.map((g) => g.influential)).toEqual(r.inf);
  });

  it('asym20 has one influential effect (its outlier), so the flag is tested both ways', () => {
    expect(ref.influence.asym20_adhoc.inf.filter(Boolean).length).toBe(1);
  });
});

describe('small-study tests against regtest, ranktest, trimfill and lm (PET-PEESE)', () => {
  const cases = ['egger2001_z', 'egger2001_adhoc', 'asym20_z', 'shipped_adhoc', 'shipped_z'];
  it.each(cases)('%s: regtest with every predictor metafor offers', (key) => {
    const [name, test] = key.split('_') as [string, MetaTest];
    const rows = rowsOf(name);
    const r = ref.small[key].regtest;
    const predictors = REGTEST_PREDICTORS.filter((p) => r[p]);
    expect(predictors.length).toBe(name === 'shipped' ? 2 : 6);
    for (const p of predictors) {
      const got = regtest(column(rows, 'yi'), column(rows, 'vi'), settings(test), p, column(rows, 'ni'))!;
      for (const f of ['stat', 'p', 'limit', 'limit_lo', 'limit_hi'] as const) {
        if (r[p][f] === null) { expect(got[f], `${p} ${f}`).toBeNaN(); continue; }
        expect(close(got[f], r[p][f], 1e-6, 1e-12), `${p} ${f}: ${got[f]} vs ${r[p][f]}`).toBe(true);
      }
      expect(got.df).toBe(r[p].df ?? Infinity);
    }
  });

  it('the shipped table\'s sample sizes are all 600: the n predictors give no test (metafor refuses them too)', () => {
    const rows = rowsOf('shipped');
    expect(regtest(column(rows, 'yi'), column(rows, 'vi'), settings('z'), 'ni', column(rows, 'ni'))).toBeUndefined();
  });

  it.each(['egger2001_z', 'asym20_z', 'shipped_z'])('%s: ranktest τ and p (exact, no ties)', (key) => {
    const rows = rowsOf(key.split('_')[0]);
    const got = ranktest(column(rows, 'yi'), column(rows, 'vi'));
    const r = ref.small[key].ranktest;
    expect(close(got.tau, r.tau, 1e-9)).toBe(true);
    expect(close(got.p, r.p, 1e-9), `${got.p} vs ${r.p}`).toBe(true);
  });

  it('ranktest with tied variances: the normal approximation with the tie correction, as cor.test', () => {
    const rows = rowsOf('asym20');
    const v = Float64Array.from(column(rows, 'vi'), (x) => Number(x.toPrecision(1)));
    const got = ranktest(column(rows, 'yi'), v);
    expect(got.exact).toBe(false);
    expect(close(got.tau, ref.ranktest_ties.tau, 1e-9)).toBe(true);
    expect(close(got.p, ref.ranktest_ties.p, 1e-9), `${got.p} vs ${ref.ranktest_ties.p}`).toBe(true);
  });

  it.each(cases.flatMap((c) => [[c, 'L0'], [c, 'R0']] as const))('%s: trimfill %s — side, k0, filled estimate and interval', (key, est) => {
    const [name, test] = key.split('_') as [string, MetaTest];
    const rows = rowsOf(name);
    const got = trimfill(column(rows, 'yi'), column(rows, 'vi'), settings(test), est)!;
    const r = ref.small[key].trimfill[est];
    expect(got.side).toBe(r.side);
    expect(got.k0).toBe(r.k0);
    for (const f of ['estimate', 'se', 'ci_lo', 'ci_hi', 'tau2'] as const) expect(close(got[f], r[f], 1e-6, 1e-12), `${f}: ${got[f]} vs ${r[f]}`).toBe(true);
  });

  it('the trim-and-fill cases fill on both sides and with both estimators (k0 > 0)', () => {
    expect(ref.small.egger2001_z.trimfill.L0).toMatchObject({ side: 'right', k0: 7 });
    expect(ref.small.asym20_z.trimfill.R0).toMatchObject({ side: 'left', k0: 2 });
  });

  it.each(['egger2001_z', 'asym20_z', 'shipped_z'])('%s: PET and PEESE as lm(y ~ se | v, weights = 1/v)', (key) => {
    const rows = rowsOf(key.split('_')[0]);
    const got = petPeese(column(rows, 'yi'), column(rows, 'vi'))!;
    for (const m of ['pet', 'peese'] as const) {
      for (const f of ['estimate', 'se', 'p', 'slope'] as const) {
        expect(close(got[m][f], ref.small[key][m][f], 1e-6, 1e-12), `${m} ${f}: ${got[m][f]} vs ${ref.small[key][m][f]}`).toBe(true);
      }
    }
    expect(got.chosen).toBe(ref.small[key].pet.p < 0.1 ? 'PEESE' : 'PET');
  });
});

describe('three-level meta-regression against rma.mv(mods = …, dfs = "contain")', () => {
  const design = (rows: Row[], mods: readonly string[]) => [new Float64Array(rows.length).fill(1),
    ...mods.map((m) => Float64Array.from(rows, (r) => (m === 'arm' ? Number(r.arm === 'b') : Number(r[m]))))];
  it.each([['both_t', ['dose', 'arm']], ['both_z', ['dose', 'arm']], ['dose_t', ['dose']], ['arm_t', ['arm']]] as const)('%s', (key, mods) => {
    const rows = anyTable('mlreg');
    const test = key.endsWith('_z') ? 'z' : 't';
    const got = fitMultilevelRegression(column(rows, 'yi'), column(rows, 'vi'), design(rows, mods), group(rows), test)!;
    const r = ref.mlreg[key];
    got.coefficients.forEach((c, j) => {
      for (const [f, rf] of [['estimate', 'b'], ['se', 'se'], ['stat', 'stat'], ['p', 'p'], ['ci_lo', 'ci_lo'], ['ci_hi', 'ci_hi']] as const) {
        expect(close(c[f], r[rf][j], 1e-5, 1e-9), `${f}[${j}]: ${c[f]} vs ${r[rf][j]}`).toBe(true);
      }
      expect(c.df).toBe(r.df[j] ?? Infinity);
    });
    for (const f of ['QM', 'QM_p', 'sigma2_outer', 'sigma2_inner', 'logLik'] as const) {
      expect(close(got[f], r[f], 1e-5, 1e-9), `${f}: ${got[f]} vs ${r[f]}`).toBe(true);
    }
    expect(got.QM_df1).toBe(r.QM_df1);
    expect(got.QM_df2).toBe(r.QM_df2 ?? Infinity);
    const share = (n: number, m: number) => Math.max(0, 1 - m / n);
    expect(close(got.explained_outer, share(r.null_outer, r.sigma2_outer), 1e-5, 1e-9)).toBe(true);
    expect(close(got.explained_inner, share(r.null_inner, r.sigma2_inner), 1e-5, 1e-9)).toBe(true);
  });
});
