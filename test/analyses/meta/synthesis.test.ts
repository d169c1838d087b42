import { describe, expect, it } from 'vitest';
import { metaAnalyze, type MetaAnalysisSettings } from '../../../src/analyses/meta/pool.js';
import { metaTableFiles } from '../../../src/analyses/meta/tables.js';
import { metaSections } from '../../../src/analyses/meta/report.js';
import { metaFigures } from '../../../src/analyses/meta/figures.js';
import type { EffectRow } from '../../../src/analyses/meta/effects.js';
import { renderSvg } from '../../../src/render/render.js';
import { vegaLiteWarnings } from '../../helpers/vega-warnings.js';
import { anyTable, close, synthesisReference as ref, intervalsReference, type Row } from '../../stats/meta/reference.js';

/** The analysis outputs of the synthesis: the heterogeneity intervals, influence, small-study tests, against the metafor reference. */
const S: MetaAnalysisSettings = { tau2: 'REML', test: 'adhoc', pooling: 'random', level: 0.95, effect: 'shift', moderators: [] };
const effects = (rows: Row[], study?: (r: Row) => string): EffectRow[] => rows.map((r) => ({
  study: study ? study(r) : r.study, model: r.model, game: r.game, yi: Number(r.yi), vi: Number(r.vi),
  moderators: Object.fromEntries(['dose', 'arm'].filter((m) => r[m] !== undefined).map((m) => [m, r[m]])),
  ...(r.ni ? { n_base: Number(r.ni) / 2, n_alt: Number(r.ni) / 2 } : {}),
}));
const csvRows = (text: string) => {
  const [h, ...rest] = text.trim().split('\n');
  const cols = h.split(',');
  return rest.map((l) => Object.fromEntries(l.split(',').map((x, i) => [cols[i], x])));
};
const provenance = { input: { path: 'x', sha256: '0', kind: 'effects' as const }, sources: [], tool: { name: 't', version: '0' }, command: 'c' };
const files = (a: ReturnType<typeof metaAnalyze>) => Object.fromEntries(metaTableFiles('r', a, provenance).map((f) => [f.path.replace(/^r\//, ''), typeof f.content === 'string' ? f.content : Buffer.from(f.content).toString('utf8')]));
const text = (a: ReturnType<typeof metaAnalyze>) => JSON.stringify(metaSections(a, []).map((s) => [s.heading, s.blocks]));

describe('meta.csv and the report carry the Q-profile intervals', () => {
  it('spread: the overall row\'s tau2_lo … H2_hi are confint(rma)\'s', () => {
    const a = metaAnalyze(effects(anyTable('spread')), S);
    const o = csvRows(files(a)['meta.csv']).find((r) => r.scope === 'overall')!;
    const r = intervalsReference.qprofile.spread;
    for (const f of ['tau2_lo', 'tau2_hi', 'I2_lo', 'I2_hi', 'H2_lo', 'H2_hi']) expect(close(Number(o[f]), r[f], 1e-6, 1e-12), f).toBe(true);
    expect(text(a)).toContain('95 % Q-profile interval');
  });

  it('konstantopoulos: meta-multilevel.csv has the profile-likelihood intervals of σ²_study and σ²_cell', () => {
    const a = metaAnalyze(effects(anyTable('konstantopoulos')), S);
    const m = csvRows(files(a)['meta-multilevel.csv'])[0];
    const r = ref.profile.konstantopoulos;
    expect(close(Number(m.sigma2_study_lo), r.outer_lo, 1e-5)).toBe(true);
    expect(close(Number(m.sigma2_cell_hi), r.inner_hi, 1e-5)).toBe(true);
    expect(text(a)).toContain('profile-likelihood intervals');
  });
});

describe('meta-influence.csv and the report name the influential study', () => {
  it('asym20: the one cell metafor flags is flagged, its study named in the report and meta.json', () => {
    const a = metaAnalyze(effects(anyTable('asym20')), S);
    const f = files(a);
    const rows = csvRows(f['meta-influence.csv']);
    expect(rows.map((r) => r.influential === 'true')).toEqual(ref.influence.asym20_adhoc.inf);
    rows.forEach((r, i) => expect(close(Number(r.cook_d), ref.influence.asym20_adhoc.cook_d[i], 1e-6)).toBe(true));
    expect(text(a)).toContain('in study s20');
    expect(JSON.parse(f['meta.json']).influential_studies).toEqual(['s20']);
    expect(metaFigures(a).map((g) => g.id)).toContain('meta-baujat');
  });

  it.each(['asym20', 'spread'])('%s: the Baujat plot compiles without a vega-lite warning and renders (with and without an influential cell)', async (name) => {
    const f = metaFigures(metaAnalyze(effects(anyTable(name)), S)).find((g) => g.id === 'meta-baujat')!;
    expect(vegaLiteWarnings(f.spec)).toEqual([]);
    const warnings: string[] = [];
    expect(await renderSvg(f.spec, warnings)).toMatch(/^<svg/);
    expect(warnings).toEqual([]);
  });

  it('spread: no cell is influential, and the report says so', () => {
    const a = metaAnalyze(effects(anyTable('spread')), S);
    expect(a.influence.some((r) => r.influential)).toBe(false);
    expect(text(a)).toContain('No cell is influential');
  });
});

describe('the small-study tests in the outputs', () => {
  it('egger2001 (16 cells, adhoc): meta-small-study.csv has regtest per predictor, ranktest, trim and fill L0/R0 and PET-PEESE as metafor', () => {
    const a = metaAnalyze(effects(anyTable('egger2001'), (r) => r.study + r.model), { ...S, effect: 'logor' });
    const rows = csvRows(files(a)['meta-small-study.csv']);
    const r = ref.small.egger2001_adhoc;
    const row = (test: string, variant: string) => rows.find((x) => x.test === test && x.variant === variant)!;
    for (const p of ['sei', 'vi', 'ni', 'ninv', 'sqrtni', 'sqrtninv']) {
      expect(close(Number(row('regtest', p).stat), r.regtest[p].stat, 1e-6), p).toBe(true);
      expect(close(Number(row('regtest', p).p), r.regtest[p].p, 1e-6), p).toBe(true);
    }
    expect(close(Number(rows.find((x) => x.test === 'ranktest')!.p), r.ranktest.p, 1e-9)).toBe(true);
    for (const e of ['L0', 'R0']) {
      expect(Number(row('trimfill', e).k0)).toBe(r.trimfill[e].k0);
      expect(row('trimfill', e).side).toBe(r.trimfill[e].side);
      expect(close(Number(row('trimfill', e).estimate), r.trimfill[e].estimate, 1e-6)).toBe(true);
    }
    expect(rows.filter((x) => x.test === 'PET' || x.test === 'PEESE').map((x) => x.variant).sort()).toEqual(['chosen', 'not chosen']);
    expect(text(a)).toContain('Egger\'s regression test t(14)');
  });

  it('the funnel plot is contour-enhanced: lines about 0 at the 0.10, 0.05 and 0.01 two-sided quantiles of each SE', () => {
    const a = metaAnalyze(effects(anyTable('egger2001')), { ...S, effect: 'logor' });
    const funnel = metaFigures(a).find((g) => g.id === 'meta-funnel')!;
    const layers = (funnel.spec as { layer: { data?: { values: { se: number; x: number; p?: number }[] } }[] }).layer;
    const contour = layers.flatMap((l) => l.data?.values ?? []).filter((v) => v.p !== undefined);
    const maxSe = Math.max(...a.effects.map((r) => Math.sqrt(r.vi)));
    for (const [p, z] of [[0.1, 1.6448536269514722], [0.05, 1.959963984540054], [0.01, 2.5758293035489004]]) {
      const top = contour.filter((v) => v.p === p && v.se === maxSe).map((v) => v.x).sort((x, y) => x - y);
      expect(top).toEqual([-z * maxSe, z * maxSe]);
    }
  });

  it('below 10 cells the tests are not run, and the outputs say why', () => {
    const a = metaAnalyze(effects(anyTable('spread')), S);
    expect(a.smallStudy.status).toBe('too few');
    expect(files(a)['meta-small-study.csv']).toBeUndefined();
    expect(a.notes.join('\n')).toContain('not run — 8 cells, fewer than 10');
    expect(text(a)).toContain('fewer than 10');
  });

  it('when every study is a direct run the tests are not applicable, whatever k', () => {
    const a = metaAnalyze(effects(anyTable('egger2001')), S, [], { directRuns: true });
    expect(a.smallStudy.status).toBe('not applicable');
    expect(files(a)['meta-small-study.csv']).toBeUndefined();
    expect(text(a)).toContain('not applicable');
  });
});

describe('the three-level meta-regression in the outputs', () => {
  it('mlreg with dose and arm: meta-regression-multilevel.csv equals rma.mv(mods = ~ dose + arm, dfs = "contain")', () => {
    const a = metaAnalyze(effects(anyTable('mlreg')), { ...S, moderators: ['dose', 'arm'] });
    const rows = csvRows(files(a)['meta-regression-multilevel.csv']);
    const r = ref.mlreg.both_t;
    expect(rows.slice(0, 3).map((x) => x.term)).toEqual(['intercept', 'dose', 'arm=b']);
    rows.slice(0, 3).forEach((x, j) => {
      expect(close(Number(x.estimate), r.b[j], 1e-5)).toBe(true);
      expect(close(Number(x.se), r.se[j], 1e-5)).toBe(true);
      expect(Number(x.df1)).toBe(r.df[j]);
    });
    const qm = rows.find((x) => x.term.startsWith('test of moderators'))!;
    expect(close(Number(qm.stat), r.QM, 1e-5)).toBe(true);
    expect([Number(qm.df1), Number(qm.df2)]).toEqual([r.QM_df1, r.QM_df2]);
    const study = rows.find((x) => x.term === 'sigma2_study')!;
    expect(close(Number(study.explained), 1 - r.sigma2_outer / r.null_outer, 1e-4)).toBe(true);
    expect(text(a)).toContain('Three-level meta-regression (cells within 8 studies');
  });
});
