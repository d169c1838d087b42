/** The reproduction figure: published vs computed per statistic, with the tolerance band. */
import { shown, type DisplayNames } from '../../core/display-names.js';
import type { Figure } from '../../render/figure.js';
import { reproductionChart, type ReproductionPoint } from '../../render/charts/reproduction.js';
import type { Reproduction } from './compare.js';
import { VERDICTS } from './verdict.js';
import { TABLE_NAMES } from './table-names.js';

const OFF_CHART = 1e9;

/**
 * Plain rows of the figure: every published number the computation has (missing ones are listed in the table only), its model and
 * game by display name (`--names`) where one is given.
 */
export function reproductionPoints(rep: Reproduction, names?: DisplayNames): ReproductionPoint[] {
  return rep.rows.filter((r) => r.verdict !== 'missing').map((r) => {
    const model = shown(names, r.model), item = r.game ? `${model} / ${shown(names, r.game)}` : model;
    const half = 5 / 10 ** (r.decimals + 1);
    // x = (computed − p)/half for the published values p ∈ [band lo − h, band hi + h] accepted.
    const [lo, hi] = r.band ?? [r.computed, r.computed];
    // In half-units; a half-unit below the smallest double (over 322 decimals) puts any difference off the chart.
    const units = (v: number) => (v === 0 ? 0 : half > 0 ? Math.max(-OFF_CHART, Math.min(OFF_CHART, v / half)) : Math.sign(v) * OFF_CHART);
    return {
      statistic: `${TABLE_NAMES[r.table].short} ${r.statistic}`, model, item, row: `${TABLE_NAMES[r.table].short} ${r.statistic} — ${item}`,
      published: r.published, computed: r.computed, difference: r.difference, tolerance: r.tolerance,
      x: units(r.difference), bandLo: units(r.computed - hi) - 1, bandHi: units(r.computed - lo) + 1, verdict: r.verdict,
    };
  });
}

export function reproductionFigure(rep: Reproduction, names?: DisplayNames): Figure {
  const points = reproductionPoints(rep, names);
  const c = rep.counts;
  return reproductionChart(points, {
    rows: points.map((p) => p.row),
    verdicts: VERDICTS,
    subtitle: (`${rep.rows.length} published numbers: ${c.exact} exact, ${c['within-mc']} within Monte Carlo ` +
      `error, ${c.differs} differ${c.missing ? `, ${c.missing} missing` : ''}`),
  });
}

/** The reproduction figure, or none when no published number has a computed value to plot (every one missing). */
export const reproductionFigures = (rep: Reproduction, names?: DisplayNames): Figure[] =>
  (rep.rows.some((r) => r.verdict !== 'missing') ? [reproductionFigure(rep, names)] : []);
