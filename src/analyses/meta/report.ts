/** The HTML report sections of a meta-analysis: the summary in words, the pooled tables, the regression, the figures. */
import { num, type Block, type CellInput, type Section } from '../../render/html.js';
import type { Figure } from '../../render/figure.js';
import { fixed, interval } from '../../core/format.js';
import type { MetaAnalysis, PooledRow } from './pool.js';
import { META_TEST_NAMES } from '../../stats/meta/univariate.js';
import { effectName } from './figures.js';
import { influenceBlocks } from './influence.js';
import { smallStudyBlocks } from './small-study.js';
import { multilevelRegressionBlocks } from './regression-multilevel.js';

/**
 * Heterogeneity in words, from I²: the share of the variance of the effects that sampling error
 * does not explain (Higgins & Thompson 2002; their rough bands of 0.25, 0.50, 0.75).
 */
function heterogeneityWords(I2: number, what: string): string {
  const share = I2.toFixed(2);
  if (!Number.isFinite(I2)) return `I² could not be computed for ${what}`;
  if (I2 >= 0.75) return `I² = ${share}: the ${what} disagree far more than sampling error explains`;
  if (I2 >= 0.5) return `I² = ${share}: the ${what} disagree clearly more than sampling error explains`;
  if (I2 >= 0.25) return `I² = ${share}: the ${what} disagree somewhat more than sampling error explains`;
  if (I2 > 0) return `I² = ${share}: the ${what} agree about as well as sampling error allows`;
  return `I² = 0: the ${what} differ no more than sampling error explains`;
}


/** ", 95 % Q-profile interval [lo, hi], I² in [lo, hi]" when the interval exists (random effects). */
function heterogeneityIntervals(o: PooledRow): string {
  if (!Number.isFinite(o.tau2_lo)) return '';
  return `, 95 % Q-profile interval ${interval(o.tau2_lo, o.tau2_hi, 4)}; I² ${interval(o.I2_lo, o.I2_hi, 2)}, H² ${interval(o.H2_lo, o.H2_hi, 2)}`;
}

const pval = (p: number): CellInput => num(!Number.isFinite(p) ? 'NA' : p < 1e-4 ? '< 0.0001' : fixed(p, 4));

/** The headline: the overall estimate, its intervals and the heterogeneity in words. */
function summaryBlocks(a: MetaAnalysis): Block[] {
  const o = a.pooled.find((p) => p.scope === 'overall');
  if (!o) return [{ kind: 'text', text: 'No overall estimate: fewer than 2 cells.' }];
  const s = a.settings;
  const what = new Set(a.effects.map((r) => r.study)).size > 1 ? 'cells (games, models and studies)' : 'games';
  const how = s.pooling === 'fixed' ? 'fixed effect' : `random effects, τ² by ${s.tau2}, ${META_TEST_NAMES[s.test]} interval`;
  const text = [
    `Overall ${effectName(a)}: ${fixed(o.estimate)} ${interval(o.ci_lo, o.ci_hi)} over ${o.k} cells (${how}).`,
    Number.isFinite(o.pi_lo)
      ? `A new cell's effect would lie in ${interval(o.pi_lo, o.pi_hi)} (95 % prediction interval: t with k − 2 df, the conventional SE).` : '',
    (`${heterogeneityWords(o.I2, what)} (τ² = ${fixed(o.tau2, 4)}${heterogeneityIntervals(o)}, Q = ${fixed(o.Q, 1)} on ${o.Q_df} df, ` +
      `p ${o.Q_p < 1e-4 ? '< 0.0001' : `= ${fixed(o.Q_p, 4)}`}).`),
  ].filter((t) => t !== '').join(' ');
  const blocks: Block[] = [{ kind: 'text', text }];
  const m = a.multilevel;
  if (m) {
    const total = m.sigma2_outer + m.sigma2_inner;
    const share = total > 0 ? m.sigma2_outer / total : NaN;
    const ci = Number.isFinite(m.ci_lo) ? `${interval(m.ci_lo, m.ci_hi)} (t with ${m.df} df)` : '(no interval from 2 studies)';
    const split = Number.isFinite(share) ? ` (${fixed(100 * share, 0)} % of the between-cell variance lies between studies)` : '';
    const pl = (lo: number, hi: number) => (Number.isFinite(lo) && Number.isFinite(hi) ? ` ${interval(lo, hi, 4)}` : '');
    const sigmas = `σ²_study = ${fixed(m.sigma2_outer, 4)}${pl(m.sigma2_study_lo, m.sigma2_study_hi)}, `
      + `σ²_cell = ${fixed(m.sigma2_inner, 4)}${pl(m.sigma2_cell_lo, m.sigma2_cell_hi)} (95 % profile-likelihood intervals)`;
    blocks.push({ kind: 'text', text: `Three-level model (cells within ${m.studies} studies): ${fixed(m.estimate)} ${ci}, ${sigmas}${split}.` });
  }
  return blocks;
}

function pooledTable(a: MetaAnalysis): Block {
  return {
    kind: 'table', id: 'meta-pooled', caption: 'Pooled estimates (reports/meta.csv)',
    columns: ['Scope', 'k', 'Estimate', '95 % CI', '95 % PI', 'τ²', 'τ² 95 % CI', 'I²', 'I² 95 % CI', 'Q', 'p'],
    rows: a.pooled.map((r) => [r.scope, num(r.k, 0), num(r.estimate), interval(r.ci_lo, r.ci_hi),
      Number.isFinite(r.pi_lo) ? interval(r.pi_lo, r.pi_hi) : '—', num(r.tau2, 4), Number.isFinite(r.tau2_lo) ? interval(r.tau2_lo, r.tau2_hi, 4) : '—',
      num(r.I2, 2), Number.isFinite(r.I2_lo) ? interval(r.I2_lo, r.I2_hi, 2) : '—', num(r.Q, 1), pval(r.Q_p)]),
  };
}

function regressionBlocks(a: MetaAnalysis): Block[] {
  const r = a.regression;
  if (!r) return [];
  const f = r.fit;
  const test = a.settings.test !== 'z' ? `F(${f.QM_df1}, ${f.QM_df2}) = ${fixed(f.QM)}` : `χ²(${f.QM_df1}) = ${fixed(f.QM)}`;
  return [
    { kind: 'text', text: (`Meta-regression on ${a.settings.moderators.join(', ')}: test of moderators ${test}, ` +
      `p ${f.QM_p < 1e-4 ? '< 0.0001' : `= ${fixed(f.QM_p, 4)}`}; residual τ² = ${fixed(f.tau2, 4)}, I² = ${fixed(f.I2, 2)}.`) },
    {
      kind: 'table', id: 'meta-regression', caption: 'Coefficients (reports/meta-regression.csv)', columns: ['Term', 'Estimate', 'SE', '95 % CI', 'p'],
      rows: f.coefficients.map((c, j) => [r.design.terms[j], num(c.estimate), num(c.se), interval(c.ci_lo, c.ci_hi), pval(c.p)]),
    },
  ];
}

function leaveOneOutBlock(a: MetaAnalysis): Block[] {
  if (a.leaveOneOut.length === 0) return [];
  return [{
    kind: 'table', id: 'meta-leave-one-out', caption: 'Overall estimate with each study left out (reports/meta-leave-one-out.csv)',
    columns: ['Left out', 'Model', 'k', 'Estimate', '95 % CI'],
    rows: a.leaveOneOut.map((r) => [r.left_out, r.fit, num(r.k, 0), num(r.estimate), interval(r.ci_lo, r.ci_hi)]),
  }];
}

/** The report's section on robustness: each cell's influence (naming the influential studies) and the small-study tests. */
export function robustnessSection(a: MetaAnalysis): Section {
  return { id: 'meta-robustness', heading: 'Influence and small-study effects', blocks: [...influenceBlocks(a.influence), ...smallStudyBlocks(a.smallStudy)] };
}

/** The meta-analysis sections of a report: the pooled estimates, then influence and small-study effects. */
export const metaSections = (a: MetaAnalysis, figures: readonly Figure[]): Section[] => [metaSection(a, figures), robustnessSection(a)];

/** The meta-analysis section of a report. */
export function metaSection(a: MetaAnalysis, figures: readonly Figure[]): Section {
  return {
    id: 'meta-analysis', heading: 'Meta-analysis',
    blocks: [
      ...summaryBlocks(a), pooledTable(a), ...regressionBlocks(a), ...multilevelRegressionBlocks(a.regression?.multilevel), ...leaveOneOutBlock(a),
      ...(a.notes.length ? [{ kind: 'list' as const, items: a.notes }] : []),
      ...figures.map((figure): Block => ({ kind: 'figure', figure })),
    ],
  };
}
