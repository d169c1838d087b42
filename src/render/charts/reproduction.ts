import { COLORS, defineFigure, PLOT_WIDTH, type Figure } from '../figure.js';
import { VERDICT_COLORS, VERDICT_SHAPES } from '../verdict-colors.js';

/**
 * One published number beside the computed one. `x` is computed − published in half-units of the
 * last published digit, so |x| ≤ 1 means the computed value rounds to the published one whatever
 * the number's precision; [bandLo, bandHi] is the range of x a published value may take and not
 * differ, in the same units ([−1, 1] for points; wider, and not symmetric, for interval endpoints).
 */
export interface ReproductionPoint {
  /** y row, e.g. "Table 3 R_lo". */
  readonly statistic: string;
  readonly model: string;
  /** Model, or "model / game". */
  readonly item: string;
  /** The point's row, which labels it: "Table 3 R_lo — GPT-3.5", "Table 2 base_rate — GPT-4 / Stag Hunt". */
  readonly row: string;
  readonly published: string;
  readonly computed: number;
  readonly difference: number;
  readonly tolerance: number;
  readonly x: number;
  readonly bandLo: number;
  readonly bandHi: number;
  readonly verdict: string;
}

export interface ReproductionChartOptions {
  /** y order: one row per published number. */
  readonly rows: readonly string[];
  /** Legend order. */
  readonly verdicts: readonly string[];
  readonly subtitle: string;
}

/** A verdict's mark (VERDICT_SHAPES; exact's for a verdict it does not name). */
const mark = (v: string) => (VERDICT_SHAPES as Readonly<Record<string, { shape: string; size: number }>>)[v] ?? VERDICT_SHAPES.exact;

/**
 * Published vs computed per statistic: each published number as a point at its difference from the
 * computed value (half-units of its last digit), its tolerance band as a line, the rounding band
 * |x| ≤ 1 shaded, colour by verdict.
 */
export function reproductionChart(rows: readonly ReproductionPoint[], o: ReproductionChartOptions): Figure {
  // One row per published number, its label naming the table, statistic, model and game of the point.
  const y = { field: 'row', type: 'nominal', sort: [...o.rows], title: null, axis: { labelPadding: 6, labelFontSize: 9 } } as const;
  return defineFigure(
    'reproduction',
    'Published vs computed, per statistic, with the tolerance band',
    ('Each published number at computed − published, in half-units of its last printed digit. Each row names the published number (table, statistic, model ' +
      'and game). Inside the shaded band (|x| ≤ 1) the computed value rounds to the published one; a line is the wider range the published value of an ' +
      'interval endpoint may take within Monte Carlo error (the quantiles of the replicates of the computation at q ± δ, widened by the rounding half ' +
      'unit). Colour and shape: verdict ("differs" a larger vermillion triangle).'),
    {
      title: { text: 'Published vs computed', subtitle: o.subtitle },
      width: PLOT_WIDTH,
      height: { step: 10 },
      layer: [
        {
          data: { values: [{ lo: -1, hi: 1 }] },
          mark: { type: 'rect', color: '#e8eef5' },
          encoding: { x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' } },
        },
        {
          data: { values: rows.map((r) => ({ ...r })) },
          layer: [
            // Tolerance lines only where some number has one (a layer of no rows gives Vega an infinite extent).
            ...(rows.some((r) => r.bandHi - r.bandLo > 2) ? [{
              mark: { type: 'rule' as const, strokeWidth: 2, color: '#8d8d8d' },
              transform: [{ filter: 'datum.bandHi - datum.bandLo > 2' }],
              encoding: { y, x: { field: 'bandLo', type: 'quantitative' as const }, x2: { field: 'bandHi' } },
            }] : []),
            {
              mark: { type: 'point', filled: true, opacity: 0.9 },
              encoding: {
                y,
                x: { field: 'x', type: 'quantitative', title: 'computed − published, in half-units of the last published digit (|x| ≤ 1: exact)' },
                color: { field: 'verdict', type: 'nominal', title: 'Verdict', scale: { domain: [...o.verdicts],
                  range: o.verdicts.map((v) => VERDICT_COLORS[v] ?? COLORS.neutral) } },
                shape: {
                  field: 'verdict', type: 'nominal', title: 'Verdict',
                  scale: { domain: [...o.verdicts], range: o.verdicts.map((v) => mark(v).shape) },
                },
                size: { field: 'verdict', type: 'ordinal', title: 'Verdict', scale: { domain: [...o.verdicts], range: o.verdicts.map((v) => mark(v).size) } },
                tooltip: [
                  { field: 'statistic', type: 'nominal', title: 'Statistic' },
                  { field: 'item', type: 'nominal', title: 'Row' },
                  { field: 'published', type: 'nominal', title: 'Published' },
                  { field: 'computed', type: 'quantitative', title: 'Computed', format: '.5f' },
                  { field: 'difference', type: 'quantitative', title: 'Difference', format: '.5f' },
                  { field: 'tolerance', type: 'quantitative', title: 'Tolerance', format: '.5f' },
                  { field: 'verdict', type: 'nominal', title: 'Verdict' },
                ],
              },
            },
          ],
        },
      ],
    },
  );
}
