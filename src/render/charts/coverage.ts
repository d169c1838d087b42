import { COLORS, defineFigure, F3, PLOT_WIDTH, type Figure } from '../figure.js';

/** One statistic × interval method of a coverage study: the share of intervals that held the truth. */
export interface CoveragePoint {
  readonly statistic: string;
  readonly method: string;
  readonly coverage: number;
  /** The coverage's Monte Carlo interval (95 % Clopper–Pearson on covered of simulations). */
  readonly lo: number;
  readonly hi: number;
  readonly mean_width: number;
}

export interface CoverageChartOptions {
  /** y order of the statistics. */
  readonly statistics: readonly string[];
  readonly methods: readonly string[];
  readonly nominal: number;
  readonly subtitle: string;
}

/**
 * Coverage of bootstrap intervals per statistic and method, with its 95 % Monte Carlo interval
 * (Clopper–Pearson, which a coverage of 0 or 1 has too) and a rule at the nominal level: a point left of the rule is an interval that holds the truth
 * less often than it claims.
 */
export function coverageChart(points: readonly CoveragePoint[], o: CoverageChartOptions): Figure {
  const y = { field: 'statistic', type: 'nominal', sort: [...o.statistics], title: null, axis: { labelPadding: 6 } } as const;
  const yOffset = { field: 'method', type: 'nominal', sort: [...o.methods] } as const;
  const color = { field: 'method', type: 'nominal', title: 'Interval', sort: [...o.methods], scale: { domain: [...o.methods], range: [COLORS.base, COLORS.alt,
    COLORS.neutral] } } as const;
  return defineFigure(
    'coverage',
    'Coverage of the bootstrap intervals on this design',
    (`Share of simulated data sets (same cells and n, known true rates) whose interval contains the true value, per statistic and interval method, with its ` +
      `95 % Monte Carlo interval (Clopper–Pearson on the simulations that held it). The dashed line is the nominal ${Math.round(o.nominal * 100)} %.`),
    {
      title: { text: 'Coverage of the bootstrap intervals', subtitle: o.subtitle },
      width: PLOT_WIDTH,
      height: { step: 26 },
      layer: [
        {
          data: { values: [{ nominal: o.nominal }] },
          mark: { type: 'rule', strokeDash: [5, 4], color: '#222222' },
          encoding: { x: { field: 'nominal', type: 'quantitative' } },
        },
        {
          data: { values: points.map((p) => ({ ...p })) },
          layer: [
            { mark: { type: 'rule', strokeWidth: 2 }, encoding: { y, yOffset, x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' }, color } },
            {
              mark: { type: 'point', filled: true, size: 60, opacity: 1 },
              encoding: {
                y, yOffset, color,
                x: { field: 'coverage', type: 'quantitative', title: 'Coverage (95 % Monte Carlo interval)', scale: { zero: false }, axis: { format: '.0%' } },
                tooltip: [
                  { field: 'statistic', type: 'nominal', title: 'Statistic' },
                  { field: 'method', type: 'nominal', title: 'Interval' },
                  { field: 'coverage', type: 'quantitative', title: 'Coverage', format: F3 },
                  { field: 'mean_width', type: 'quantitative', title: 'Mean width', format: '.4f' },
                ],
              },
            },
          ],
        },
      ],
    },
  );
}
