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

describe('numbers the decimals would show as 0', () => {
  // The same table with every effect × 1e-150 and variance × 1e-300: each estimate, interval and τ² is the table's
  // × 1e-150 (or 1e-300), and shown as m × 10^e, not 0.000.
  const small = metaAnalyze(effects(anyTable('mlreg')).map((e) => ({ ...e, yi: e.yi * 1e-150, vi: e.vi * 1e-300 })), S);
  const smallTex = [metaLatex(small), metaRegressionLatex(small)!, metaInfluenceLatex(small.influence)!];
  const sci = (cell: string) => {
    const m = /^(\$-\$)?([\d.]+)\$\\times10\^\{(-?\d+)\}\$$/.exec(cell);
    return m ? (m[1] ? -1 : 1) * Number(m[2]) * 10 ** Number(m[3]) : NaN;
  };
  const near3 = (got: number, want: number) => Math.abs(got - want) <= 0.005 * Math.abs(want);

  it('meta.tex: the overall estimate, its interval and τ² in scientific notation', () => {
    // Wider, the table is set in parts (its second part, from \begingroup, holds the PI and τ²).
    const [first, second] = smallTex[0].split('\\begingroup').map(parseLatexTable);
    const row = first.rows.find((r) => r[0] === 'overall')!;
    const o = small.pooled.find((p) => p.scope === 'overall')!;
    expect(o.estimate).not.toBe(0);
    intervalParts(row[2]).forEach((cell, i) => expect(near3(sci(cell), [o.estimate, o.ci_lo, o.ci_hi][i]), cell).toBe(true));
    const tau = second.rows.find((r) => r[0] === 'overall')!;
    expect(near3(sci(intervalParts(tau[2])[0]), o.tau2), tau[2]).toBe(true);
  });

  it('meta-regression.tex: each coefficient and its SE', () => {
    const rows = parseLatexTable(smallTex[1]).rows;
    small.regression!.fit.coefficients.forEach((c, j) => {
      expect(near3(sci(intervalParts(rows[j][1])[0]), c.estimate), rows[j][1]).toBe(true);
      expect(near3(sci(rows[j][2]), c.se), rows[j][2]).toBe(true);
    });
  });

  it('a table of ordinary numbers keeps its decimals (no m × 10^e)', () => {
    expect(parseLatexTable(tex[0]).rows.flat().some((c) => c.includes('times10'))).toBe(false);
  });

  it.skipIf(!HAS_PDFLATEX)('all three compile with pdflatex, booktabs, without an overfull box', () => {
    const c = compileTables(smallTex);
    expect(c.ok, c.log).toBe(true);
    expect(c.overfull).toEqual([]);
  });
});
