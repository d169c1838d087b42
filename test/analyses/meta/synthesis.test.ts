import { describe, expect, it } from 'vitest';
import { metaAnalyze, type MetaAnalysisSettings } from '../../../src/analyses/meta/pool.js';
import { metaTableFiles } from '../../../src/analyses/meta/tables.js';
import { metaSection } from '../../../src/analyses/meta/report.js';
import { metaFigures } from '../../../src/analyses/meta/figures.js';
import type { EffectRow } from '../../../src/analyses/meta/effects.js';
import { anyTable, close, synthesisReference as ref, intervalsReference, type Row } from '../../stats/meta/reference.js';

/** The analysis outputs of the synthesis: the heterogeneity intervals, influence, small-study tests, against the metafor reference. */
const S: MetaAnalysisSettings = { tau2: 'REML', test: 'adhoc', pooling: 'random', level: 0.95, effect: 'shift', moderators: [] };
const effects = (rows: Row[], study?: (r: Row) => string): EffectRow[] => rows.map((r) => ({
  study: study ? study(r) : r.study, model: r.model, game: r.game, yi: Number(r.yi), vi: Number(r.vi), moderators: {},
  ...(r.ni ? { n_base: Number(r.ni) / 2, n_alt: Number(r.ni) / 2 } : {}),
}));
const csvRows = (text: string) => {
  const [h, ...rest] = text.trim().split('\n');
  const cols = h.split(',');
  return rest.map((l) => Object.fromEntries(l.split(',').map((x, i) => [cols[i], x])));
};
const provenance = { input: { path: 'x', sha256: '0', kind: 'effects' as const }, sources: [], tool: { name: 't', version: '0' }, command: 'c' };
const files = (a: ReturnType<typeof metaAnalyze>) => Object.fromEntries(metaTableFiles('r', a, provenance).map((f) => [f.path.replace(/^r\//, ''), f.content]));
const text = (a: ReturnType<typeof metaAnalyze>) => JSON.stringify(metaSection(a, []).blocks);

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

  it('spread: no cell is influential, and the report says so', () => {
    const a = metaAnalyze(effects(anyTable('spread')), S);
    expect(a.influence.some((r) => r.influential)).toBe(false);
    expect(text(a)).toContain('No cell is influential');
  });
});
