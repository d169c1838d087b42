import { describe, expect, it } from 'vitest';
import { metaAnalyze, type MetaAnalysisSettings } from '../../../src/analyses/meta/pool.js';
import { metaInfluenceLatex, metaLatex, metaRegressionLatex } from '../../../src/analyses/meta/latex.js';
import type { EffectRow } from '../../../src/analyses/meta/effects.js';
import { compileTables, HAS_PDFLATEX, intervalParts, parseLatexTable } from '../../helpers/latex.js';
import { anyTable, type Row } from '../../stats/meta/reference.js';

/** meta.tex, meta-regression.tex and meta-influence.tex: the booktabs structure, the numbers of the analysis, and a pdflatex compile. */
const S: MetaAnalysisSettings = { tau2: 'REML', test: 'adhoc', pooling: 'random', level: 0.95, effect: 'shift', moderators: ['dose', 'arm'] };
const effects = (rows: Row[]): EffectRow[] => rows.map((r) => ({ study: r.study, model: r.model, game: r.game, yi: Number(r.yi), vi: Number(r.vi),
  moderators: { dose: r.dose, arm: r.arm } }));
const a = metaAnalyze(effects(anyTable('mlreg')), S);
const tex = [metaLatex(a), metaRegressionLatex(a)!, metaInfluenceLatex(a.influence)!];

describe('the meta-analysis .tex tables', () => {
  it('meta.tex: a row per pooled scope and the three-level row, the overall estimate and its τ² interval as in meta.csv', () => {
    const t = parseLatexTable(tex[0]);
    expect(t.label).toBe('tab:meta');
    expect(t.rows.map((r) => r[0])).toEqual([...a.pooled.map((p) => p.scope), 'three-level (8 studies)']);
    const o = a.pooled.find((p) => p.scope === 'overall')!;
    const row = t.rows.find((r) => r[0] === 'overall')!;
    expect(intervalParts(row[2]).map((x) => Number(x.replace('$-$', '-')))).toEqual([o.estimate, o.ci_lo, o.ci_hi].map((x) => Number(x.toFixed(3))));
    expect(intervalParts(row[4]).map((x) => Number(x))).toEqual([o.tau2, o.tau2_lo, o.tau2_hi].map((x) => Number(x.toFixed(4))));
  });

  it('meta-regression.tex: the random-effects and three-level coefficients under their headings', () => {
    const t = parseLatexTable(tex[1]);
    expect(t.sections).toEqual(['Random effects', 'Three-level (cells within studies)']);
    expect(t.rows.map((r) => r[0])).toEqual(['intercept', 'dose', 'arm=b', 'intercept', 'dose', 'arm=b']);
    expect(t.rows.slice(3).map((r) => Number(r[4]))).toEqual(a.regression!.multilevel!.fit.coefficients.map((c) => c.df));
  });

  it('meta-influence.tex: a row per cell, the influential ones marked', () => {
    const t = parseLatexTable(tex[2]);
    expect(t.rows.length).toBe(a.effects.length);
    expect(t.rows.map((r) => r[r.length - 1] === '*')).toEqual(a.influence.map((r) => r.influential));
  });

  it.skipIf(!HAS_PDFLATEX)('all three compile with pdflatex, booktabs, without an overfull box', () => {
    const c = compileTables(tex);
    expect(c.ok, c.log).toBe(true);
    expect(c.overfull).toEqual([]);
  });
});
