import { COLORS, defineFigure, F3, type Figure } from '../figure.js';

/** One row of the forest plot: a statistic of one model (or the pooled value) with its interval. */
export interface ForestRow {
  readonly model: string;
  /** Panel label, e.g. "R (conservative)". */
  readonly statistic: string;
  readonly estimate: number;
  readonly lo: number;
  readonly hi: number;
  /** "Model" or "Pooled": pooled rows are drawn as diamonds. */
  readonly group: 'Model' | 'Pooled';
}

export interface ForestOptions {
  /** y order: models in input order, then the pooled label. */
  readonly rows: readonly string[];
  /** Panel order. */
  readonly statistics: readonly string[];
  readonly subtitle: string;
  /** How the intervals were computed, for the caption (default "percentile-bootstrap"). */
  readonly intervalKind?: string;
  /** The statistics in words: as a title names them ("robustness R and action shift") and as quantities ("robustness and action shift"). */
  readonly named: string;
  readonly quantities: string;
}

/**
 * Same Game, Different Story Table 3 as a forest plot: one panel per statistic (R, action shift, …), a point per
 * model and the pooled value, with its 95 % bootstrap interval as a line. Panels have their own
 * x scales, since the statistics live on different ranges.
 */
export function table3Forest(rows: readonly ForestRow[], o: ForestOptions): Figure {
  const y = { field: 'model', type: 'nominal', sort: [...o.rows], title: null, axis: { labelPadding: 6 } } as const;
  const withInterval = rows.filter((r) => Number.isFinite(r.lo) && Number.isFinite(r.hi)).length;
  return defineFigure(
    'table3-forest',
    `Table 3: ${o.quantities} with 95 % intervals`,
    `Point estimates of Table 3 per model and pooled, with 95 % ${o.intervalKind ?? 'percentile-bootstrap'} intervals (lines). Pooled values are diamonds.`,
    {
      title: { text: `Table 3: ${o.named}`, subtitle: o.subtitle },
      data: { values: rows.map((r) => ({ ...r })) },
      facet: {
        column: {
          field: 'statistic', type: 'nominal', sort: [...o.statistics],
          header: { title: null, labelFontWeight: 'bold', labelFontSize: 12.5 },
        },
      },
      resolve: { scale: { x: 'independent' } },
      spacing: 24,
      spec: {
        width: 250,
        height: { step: 30 },
        layer: [
          // Rows without an interval (fewer than 3 matches) draw no line: filtered out when some are, the layer left out when all are.
          ...(withInterval === 0 ? [] : [{
            mark: { type: 'rule' as const, strokeWidth: 2.5 },
            ...(withInterval < rows.length ? { transform: [{ filter: 'isFinite(datum.lo) && isFinite(datum.hi)' }] } : {}),
            encoding: {
              y,
              x: { field: 'lo', type: 'quantitative' as const },
              x2: { field: 'hi' },
              color: { field: 'group', type: 'nominal' as const, legend: null, scale: { domain: ['Model', 'Pooled'], range: [COLORS.base, COLORS.neutral] } },
            },
          }]),
          {
            mark: { type: 'point', filled: true, size: 75, opacity: 1 },
            encoding: {
              y,
              x: { field: 'estimate', type: 'quantitative', scale: { zero: false }, title: 'Estimate (95 % interval)', axis: { format: '.2f', tickCount: 5 } },
              color: { field: 'group', type: 'nominal', legend: null },
              shape: { field: 'group', type: 'nominal', legend: null, scale: { domain: ['Model', 'Pooled'], range: ['circle', 'diamond'] } },
              tooltip: [
                { field: 'model', type: 'nominal', title: 'Model' },
                { field: 'statistic', type: 'nominal', title: 'Statistic' },
                { field: 'estimate', type: 'quantitative', title: 'Estimate', format: F3 },
                { field: 'lo', type: 'quantitative', title: '2.5 %', format: F3 },
                { field: 'hi', type: 'quantitative', title: '97.5 %', format: F3 },
              ],
            },
          },
        ],
      },
    },
  );
}
