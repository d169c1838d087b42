/**
 * The meta-analysis tables as LaTeX (reports/meta.tex, meta-regression.tex, meta-influence.tex),
 * in the booktabs style of the other tables (render/latex.ts): the pooled rows with their
 * confidence, prediction and τ² intervals and I²; the coefficients of the meta-regression (and of
 * its three-level form, as a section); each cell's influence diagnostics. Three decimals as the
 * report shows them (the CSVs keep 12 significant digits), a value those would show as 0 (|x| below half a unit of the
 * last decimal, 1e-202) as m × 10^e with three significant digits; names by their display names.
 */
import { fixed } from '../../core/format.js';
import { intervalCell, latexTable, leftColumn, rightColumn, type LatexCell, type LatexOptions } from '../../render/latex.js';
import type { MetaAnalysis } from './pool.js';
import type { CellInfluence } from './influence.js';

/** x to d decimals, or m × 10^e (math mode; plain m e−e with plain) when it is not 0 but those would show 0. */
function t(x: number, d = 3, plain = false): string {
  if (!Number.isFinite(x)) return '';
  if (x === 0 || Math.abs(x) >= 0.5 * 10 ** -d) return fixed(x, d);
  const [m, e] = x.toExponential(2).split('e');
  return plain ? `${m}e${e}` : `${m}$\\times10^{${Number(e)}}$`;
}
const v = (x: number, d = 3): LatexCell => ({ number: t(x, d) });
const vi = (x: number, lo: number, hi: number, d = 3): LatexCell => intervalCell(t(x, d), t(lo, d), t(hi, d));
const pv = (p: number): LatexCell => ({ number: !Number.isFinite(p) ? '' : p < 1e-4 ? '<0.0001' : fixed(p, 4) });

/** The pooled rows (and the three-level row) of meta.csv. */
export function metaLatex(a: MetaAnalysis, options: LatexOptions = {}): string {
  const m = a.multilevel;
  const rows: LatexCell[][] = a.pooled.map((r) => [r.scope, r.k, vi(r.estimate, r.ci_lo, r.ci_hi), vi(NaN, r.pi_lo, r.pi_hi),
    vi(r.tau2, r.tau2_lo, r.tau2_hi, 4), vi(r.I2, r.I2_lo, r.I2_hi, 2), v(r.Q, 1), pv(r.Q_p)]);
  if (m) {
    rows.push([`three-level (${m.studies} studies)`, m.k, vi(m.estimate, m.ci_lo, m.ci_hi), vi(NaN, m.pi_lo, m.pi_hi),
      v(m.sigma2_outer + m.sigma2_inner, 4), '', v(m.Q, 1), pv(m.Q_p)]);
  }
  return latexTable({
    caption: `Pooled framing effects (${a.settings.effect}) with 95 % confidence and prediction intervals, τ² with its Q-profile interval and I² `
      + `(${a.settings.pooling === 'fixed' ? 'fixed effect' : `random effects, τ² by ${a.settings.tau2}`}).`
      + `${m ? ' Three-level row: τ² is σ²_study + σ²_cell.' : ''}`,
    label: 'tab:meta',
    columns: [leftColumn('Scope'), rightColumn('k'), rightColumn('Estimate'), rightColumn('PI'), rightColumn('τ²'), rightColumn('I²'), rightColumn('Q'),
      rightColumn('p')],
    rows,
    rulesAfter: m ? [rows.length - 2] : undefined,
  }, options);
}

/** The coefficients of the meta-regression; the three-level coefficients below their own heading. */
export function metaRegressionLatex(a: MetaAnalysis, options: LatexOptions = {}): string | undefined {
  const r = a.regression;
  if (!r) return undefined;
  const uni = r.fit.coefficients.map((c, j): LatexCell[] => [r.design.terms[j], vi(c.estimate, c.ci_lo, c.ci_hi), v(c.se), v(c.stat, 2),
    Number.isFinite(r.fit.df) ? r.fit.df : '', pv(c.p)]);
  const ml = r.multilevel;
  const three = ml ? ml.fit.coefficients.map((c, j): LatexCell[] => [ml.terms[j], vi(c.estimate, c.ci_lo, c.ci_hi), v(c.se), v(c.stat, 2),
    Number.isFinite(c.df) ? c.df : '', pv(c.p)]) : [];
  const test = (q: number, d1: number, d2: number, p: number) =>
    `${Number.isFinite(d2) ? `F(${d1}, ${d2})` : `χ²(${d1})`} = ${t(q, 2, true)}, p ${p < 1e-4 ? '< 0.0001' : t(p, 4)}`;
  return latexTable({
    caption: `Meta-regression on ${a.settings.moderators.join(', ')}: coefficients with 95 % intervals. Random effects: ${test(r.fit.QM, r.fit.QM_df1,
      r.fit.QM_df2, r.fit.QM_p)}.${ml ? ` Three-level (containment df): ${test(ml.fit.QM, ml.fit.QM_df1, ml.fit.QM_df2, ml.fit.QM_p)}.` : ''}`,
    label: 'tab:meta-regression',
    columns: [leftColumn('Term'), rightColumn('Estimate'), rightColumn('SE'), rightColumn('Statistic'), rightColumn('df'), rightColumn('p')],
    rows: [...uni, ...three],
    sections: ml ? [{ before: 0, title: 'Random effects' }, { before: uni.length, title: 'Three-level (cells within studies)' }] : undefined,
  }, options);
}

/** Each cell's influence diagnostics (influence.rma.uni's columns), influential cells marked *. */
export function metaInfluenceLatex(rows: readonly CellInfluence[], options: LatexOptions = {}): string | undefined {
  if (rows.length === 0) return undefined;
  return latexTable({
    caption: 'Influence of each cell on the overall estimate: externally standardized residual, DFFITS, Cook\'s distance, covariance ratio, '
      + 'hat value and the overall estimate without the cell; * marks a cell influential by metafor\'s rule.',
    label: 'tab:meta-influence',
    columns: [leftColumn('Study'), leftColumn('Model'), leftColumn('Game'), rightColumn('rstudent'), rightColumn('DFFITS'), rightColumn('Cook'),
      rightColumn('cov.r'), rightColumn('hat'), rightColumn('Without it'), leftColumn('Flag')],
    rows: rows.map((r) => [r.study, r.model, r.game, v(r.rstudent, 2), v(r.dffits, 2), v(r.cook_d), v(r.cov_r), v(r.hat),
      vi(r.loo_estimate, r.loo_ci_lo, r.loo_ci_hi), r.influential ? '*' : '']),
  }, options);
}
