/**
 * The tables of a meta-analysis: reports/effects.csv, meta.csv, meta-multilevel.csv,
 * meta-regression.csv, meta-regression-multilevel.csv, meta-leave-one-out.csv, meta-influence.csv,
 * meta-small-study.csv, meta.json (settings, every pooled number, notes, and the provenance: the
 * manifest's hash and every source's SHA-256), and meta.tex, meta-regression.tex, meta-influence.tex.
 */
import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import { toCsv, type CsvValue } from '../../render/csv.js';
import type { LatexOptions } from '../../render/latex.js';
import { fileNumber, finiteOrNull, jsonText, scaleOf } from '../../core/format.js';
import type { Coefficient } from '../../stats/meta/univariate.js';
import type { MetaAnalysis } from './pool.js';
import { TAU2_ESTIMATORS } from '../../stats/meta/tau2.js';
import { META_TEST_NAMES } from '../../stats/meta/univariate.js';
import { withNameColumns, type DisplayNames } from '../../core/display-names.js';
import { NAMED_FIELDS, namedMeta, scopeNames } from './named.js';
import { metaInfluenceLatex, metaLatex, metaRegressionLatex } from './latex.js';
import { influenceCsv, influentialStudies } from './influence.js';
import { smallStudyCsv } from './small-study.js';
import { multilevelRegressionCsv } from './regression-multilevel.js';

/** Moderator columns of the effect table: every name any row carries, in first-appearance order. */
export function moderatorColumns(a: MetaAnalysis): string[] {
  const names = new Set<string>();
  for (const r of a.effects) for (const k of Object.keys(r.moderators)) names.add(k);
  return [...names];
}

/** Every cell's effect; with display names, a study_name, model_name or game_name column for each that names a level. */
export function effectsCsv(a: MetaAnalysis, names?: DisplayNames): string {
  const mods = moderatorColumns(a);
  // A synthetic column when any cell's data are synthetic (meta --effects reads it back).
  const synth = a.effects.some((r) => r.synthetic) ? ['synthetic'] : [];
  const t = withNameColumns(names, ['study', 'model', 'game', 'yi', 'vi', 'n_base', 'n_alt', ...mods, ...synth],
    a.effects.map((r) => [r.study, r.model, r.game, r.yi, r.vi, r.n_base ?? NaN, r.n_alt ?? NaN, ...mods.map((m) => r.moderators[m] ?? ''),
      ...synth.map(() => (r.synthetic ? 'true' : 'false'))]), NAMED_FIELDS);
  return toCsv(t.header, t.rows);
}

const POOLED = ['scope', 'k', 'estimate', 'se', 'ci_lo', 'ci_hi', 'pi_lo', 'pi_hi', 'tau2', 'I2', 'H2', 'Q', 'Q_df', 'Q_p',
  'tau2_lo', 'tau2_hi', 'I2_lo', 'I2_hi', 'H2_lo', 'H2_hi'] as const;

/** The pooled rows; with display names, a scope_name column ("model: GPT-4") when a scope's id is named. */
export function pooledCsv(a: MetaAnalysis, names?: DisplayNames): string {
  const t = withNameColumns(scopeNames(a, names), POOLED, a.pooled.map((r) => POOLED.map((c) => r[c])), ['scope']);
  return toCsv(t.header, t.rows);
}

const MULTILEVEL = ['k', 'studies', 'estimate', 'se', 'df', 'ci_lo', 'ci_hi', 'pi_lo', 'pi_hi', 'sigma2_study', 'sigma2_cell', 'Q', 'Q_df', 'Q_p',
  'logLik', 'sigma2_study_lo', 'sigma2_study_hi', 'sigma2_cell_lo', 'sigma2_cell_hi'] as const;

export function multilevelCsv(a: MetaAnalysis): string | undefined {
  const m = a.multilevel;
  if (!m) return undefined;
  const row: Record<(typeof MULTILEVEL)[number], number> = { ...m, sigma2_study: m.sigma2_outer, sigma2_cell: m.sigma2_inner };
  return toCsv(['scope', ...MULTILEVEL], [['overall', ...MULTILEVEL.map((c) => row[c])]]);
}

const REGRESSION = ['term', 'estimate', 'se', 'stat', 'df1', 'df2', 'p', 'ci_lo', 'ci_hi', 'tau2', 'I2'] as const;

/**
 * Coefficients with float noise written 0 (fileNumber's scale): an estimate, its se and interval
 * on the scale of that coefficient's own estimate, se and limits (moderators of 1e200 and 1 have
 * coefficients 200 orders apart, neither of them noise); a test statistic on the scale of the statistics.
 */
function onScale(cs: readonly Coefficient[]): Coefficient[] {
  const stat = scaleOf(cs.map((c) => c.stat));
  return cs.map((c) => {
    const est = scaleOf([c.estimate, c.se, c.ci_lo, c.ci_hi]);
    const e = (x: number) => fileNumber(x, est);
    return { ...c, estimate: e(c.estimate), se: e(c.se), ci_lo: e(c.ci_lo), ci_hi: e(c.ci_hi), stat: fileNumber(c.stat, stat) };
  });
}

/**
 * A row per coefficient (t with df1 = k − p under knha, z otherwise), then the test of the
 * moderators (F with df1, df2 under knha; χ² with df1 otherwise) and the residual heterogeneity
 * Q_E with the residual τ² and I².
 */
export function regressionCsv(a: MetaAnalysis): string | undefined {
  const r = a.regression;
  if (!r) return undefined;
  const f = r.fit;
  const tdf = Number.isFinite(f.df) ? f.df : NaN;
  const rows: CsvValue[][] = onScale(f.coefficients).map((c, j) => [r.design.terms[j], c.estimate, c.se, c.stat, tdf, NaN, c.p, c.ci_lo, c.ci_hi, NaN, NaN]);
  const testName = `test of moderators (${a.settings.test === 'z' ? 'chi-square' : 'F'})`;
  rows.push([testName, NaN, NaN, f.QM, f.QM_df1, Number.isFinite(f.QM_df2) ? f.QM_df2 : NaN, f.QM_p, NaN, NaN, NaN, NaN]);
  rows.push(['residual heterogeneity (Q_E)', NaN, NaN, f.Q, f.Q_df, NaN, f.Q_p, NaN, NaN, f.tau2, f.I2]);
  return toCsv(REGRESSION, rows);
}

const LOO = ['left_out', 'fit', 'k', 'estimate', 'se', 'ci_lo', 'ci_hi', 'pi_lo', 'pi_hi'] as const;

/** Each study left out in turn; with display names, a left_out_name column. */
export function leaveOneOutCsv(a: MetaAnalysis, names?: DisplayNames): string | undefined {
  if (a.leaveOneOut.length === 0) return undefined;
  const t = withNameColumns(names, LOO, a.leaveOneOut.map((r) => LOO.map((c) => r[c])), ['left_out']);
  return toCsv(t.header, t.rows);
}

/** How the prediction intervals are computed, for meta.json. */
const PREDICTION_INTERVAL = 'estimate ± t(k − 2)·√(τ² + SE²) with the conventional SE '
  + '(three-level: t(studies − 1)·√(SE² + σ²_study + σ²_cell)); '
  + 'none below 3 cells or studies, kept inside the effect\'s range';

const clean = (o: object) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'number' ? finiteOrNull(v) : v]));

export interface MetaProvenance {
  /** The manifest or effect table: path as given and SHA-256. */
  readonly input: { readonly path: string; readonly sha256: string; readonly kind: 'manifest' | 'effects' };
  /** Every study's source files with their SHA-256 (a manifest), and what its cells are. */
  readonly sources: readonly object[];
  readonly tool: { readonly name: string; readonly version: string };
  readonly command: string;
}

export function metaJson(a: MetaAnalysis, p: MetaProvenance, names?: DisplayNames): string {
  const s = a.settings;
  const reg = a.regression;
  return `${jsonText({
    tool: p.tool, command: p.command, input: p.input, sources: p.sources,
    settings: { ...s, tau2_estimator: TAU2_ESTIMATORS[s.tau2].describe, test_description: META_TEST_NAMES[s.test], prediction_interval: PREDICTION_INTERVAL },
    cells: a.effects.length,
    studies: [...new Set(a.effects.map((r) => r.study))].length,
    pooled: a.pooled.map(clean),
    multilevel: a.multilevel ? clean({ ...a.multilevel, sigma2_study: a.multilevel.sigma2_outer, sigma2_cell: a.multilevel.sigma2_inner }) : null,
    regression: reg ? {
      coding: reg.design.coding,
      coefficients: onScale(reg.fit.coefficients).map((c, j) => clean({ term: reg.design.terms[j], ...c })),
      ...clean({ QM: reg.fit.QM, QM_df1: reg.fit.QM_df1, QM_df2: reg.fit.QM_df2, QM_p: reg.fit.QM_p, QE: reg.fit.Q, QE_df: reg.fit.Q_df, QE_p: reg.fit.Q_p,
        tau2: reg.fit.tau2, I2: reg.fit.I2, H2: reg.fit.H2 }),
      multilevel: reg.multilevel ? {
        coefficients: reg.multilevel.fit.coefficients.map((c, j) => clean({ term: reg.multilevel!.terms[j], ...c })),
        ...clean({ ...reg.multilevel.fit, coefficients: undefined }),
      } : null,
    } : null,
    leave_one_out: a.leaveOneOut.map(clean),
    influential_studies: influentialStudies(a.influence),
    small_study: a.smallStudy.status,
    notes: a.notes,
    ...(names && Object.keys(names).length ? { names: { ...names } } : {}),
  }, 2)}\n`;
}

/**
 * The table files under reports/ (a table with nothing in it is not written); display names add columns and a map, the ids stay;
 * `latex`: the text width the .tex tables are laid out for (--latex-width).
 */
export function metaTableFiles(reports: string, a: MetaAnalysis, p: MetaProvenance, names?: DisplayNames, latex: LatexOptions = {}): OutputFile[] {
  const named = namedMeta(a, names); // the .tex tables show display names; the CSVs keep the ids
  const files: [string, string | undefined][] = [
    ['effects.csv', effectsCsv(a, names)], ['meta.csv', pooledCsv(a, names)], ['meta-multilevel.csv', multilevelCsv(a)],
    ['meta-regression.csv', regressionCsv(a)], ['meta-leave-one-out.csv', leaveOneOutCsv(a, names)], ['meta-influence.csv', influenceCsv(a.influence)],
    ['meta-small-study.csv', smallStudyCsv(a.smallStudy)], ['meta-regression-multilevel.csv', multilevelRegressionCsv(a.regression?.multilevel)],
    ['meta.tex', metaLatex(named, latex)], ['meta-regression.tex', metaRegressionLatex(named, latex)],
    ['meta-influence.tex', metaInfluenceLatex(named.influence, latex)],
    ['meta.json', metaJson(a, p, names)],
  ];
  return files.filter((f): f is [string, string] => f[1] !== undefined).map(([name, content]) => ({ path: join(reports, name), content }));
}
