/**
 * The meta-regression in the three-level model of cells within studies
 * (stats/meta/multilevel-regression.ts, metafor's rma.mv(mods = …, dfs = "contain")): run beside
 * the univariate meta-regression when moderators are given and the three-level model is identified
 * (two studies or more, one with two cells). reports/meta-regression-multilevel.csv and a report
 * paragraph with the test of the moderators and the share of each level's variance they explain.
 */
import { fitMultilevelRegression, type MultilevelRegression } from '../../stats/meta/multilevel-regression.js';
import { toCsv, type CsvValue } from '../../render/csv.js';
import { num, type Block } from '../../render/html.js';
import { fixed, interval } from '../../core/format.js';
import type { MetaSettings } from '../../stats/meta/univariate.js';
import type { MetaDesign } from './design.js';
import type { EffectRow } from './effects.js';
import { analysesMetaMsg } from './messages.js';

export interface MultilevelRegressionResult {
  readonly terms: readonly string[];
  readonly fit: MultilevelRegression;
}

/** The fit (t with containment df unless the test is z); undefined, with a note, when it cannot be fitted. */
export function multilevelRegression(rows: readonly EffectRow[], design: MetaDesign, group: Int32Array, s: MetaSettings,
  notes: string[]): MultilevelRegressionResult | undefined {
  const fit = fitMultilevelRegression(Float64Array.from(rows, (r) => r.yi), Float64Array.from(rows, (r) => r.vi), design.X, group,
    s.test === 'z' ? 'z' : 't', s.level);
  if (!fit) { notes.push(analysesMetaMsg.multilevelRegressionNotFitted()); return undefined; }
  return { terms: design.terms, fit };
}

const COLUMNS = ['term', 'estimate', 'se', 'stat', 'df1', 'df2', 'p', 'ci_lo', 'ci_hi', 'sigma2', 'explained'] as const;

/** Coefficients, then the test of the moderators, then σ²_study and σ²_cell with the share explained. */
export function multilevelRegressionCsv(r: MultilevelRegressionResult | undefined): string | undefined {
  if (!r) return undefined;
  const f = r.fit;
  const fin = (x: number) => (Number.isFinite(x) ? x : NaN);
  const rows: CsvValue[][] = f.coefficients.map((c, j) => [r.terms[j], c.estimate, c.se, c.stat, fin(c.df), NaN, c.p, c.ci_lo, c.ci_hi, NaN, NaN]);
  rows.push([`test of moderators (${f.QM_df2 === Infinity ? 'chi-square' : 'F'})`, NaN, NaN, f.QM, f.QM_df1, fin(f.QM_df2), f.QM_p, NaN, NaN, NaN, NaN]);
  rows.push(['sigma2_study', NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, f.sigma2_outer, f.explained_outer]);
  rows.push(['sigma2_cell', NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, f.sigma2_inner, f.explained_inner]);
  return toCsv(COLUMNS, rows);
}

const pct = (x: number) => (Number.isFinite(x) ? `${fixed(100 * x, 0)} %` : 'not defined (its variance is 0 without moderators)');

export function multilevelRegressionBlocks(r: MultilevelRegressionResult | undefined): Block[] {
  if (!r) return [];
  const f = r.fit;
  const test = f.QM_df2 === Infinity ? `χ²(${f.QM_df1}) = ${fixed(f.QM)}` : `F(${f.QM_df1}, ${f.QM_df2}) = ${fixed(f.QM)}`;
  return [
    { kind: 'text', text: `Three-level meta-regression (cells within ${f.groups} studies; containment df): test of moderators ${test}, `
      + `p ${f.QM_p < 1e-4 ? '< 0.0001' : `= ${fixed(f.QM_p, 4)}`}; the moderators explain ${pct(f.explained_outer)} of σ²_study and `
      + `${pct(f.explained_inner)} of σ²_cell.` },
    {
      kind: 'table', id: 'meta-regression-multilevel', caption: 'Three-level coefficients (reports/meta-regression-multilevel.csv)',
      columns: ['Term', 'Estimate', 'SE', 'df', '95 % CI', 'p'],
      rows: f.coefficients.map((c, j) => [r.terms[j], num(c.estimate), num(c.se), Number.isFinite(c.df) ? num(c.df, 0) : '∞', interval(c.ci_lo, c.ci_hi),
        num(c.p, 4)]),
    },
  ];
}
