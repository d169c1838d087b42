import { COLORS, defineFigure, F3, type Figure } from '../figure.js';

/** One framing of one model: its comprehension over every probe, with its 95 % Wilson interval, and its verdict. */
export interface ComprehensionPoint {
  readonly model: string;
  readonly framing: string;
  readonly accuracy: number;
  readonly lo: number;
  readonly hi: number;
  readonly asked: number;
  /** "shown" or "not shown" (payoff-equivalent for this model). */
  readonly verdict: 'shown' | 'not shown';
}

export interface ComprehensionChartOptions {
  /** Framings in design order (y within a panel). */
  readonly framings: readonly string[];
  /** Models in design order (one panel each). */
  readonly models: readonly string[];
  readonly threshold: number;
  readonly subtitle: string;
}

/**
 * Comprehension probes (docs/methods.md §18c): per model a panel, per framing a point at the share
 * of probes answered with the game's payoff, its 95 % Wilson interval as a line, the threshold as
 * a dashed rule; a framing not shown payoff-equivalent for the model is drawn in the alternative
 * colour.
 */
export function comprehensionChart(points: readonly ComprehensionPoint[], o: ComprehensionChartOptions): Figure {
  const y = { field: 'framing', type: 'nominal', sort: [...o.framings], title: null } as const;
  const x = () => ({ type: 'quantitative' as const, scale: { domain: [0, 1], nice: false }, title: 'Accuracy (95 % Wilson interval)',
    axis: { format: '.1f', tickCount: 5 } });
  const color = { field: 'verdict', type: 'nominal', title: 'Payoff-equivalent',
    scale: { domain: ['shown', 'not shown'], range: [COLORS.base, COLORS.alt] } } as const;
  return defineFigure('comprehension', 'Comprehension probes: accuracy per framing and model',
    ('Share of comprehension probes answered with the game\'s payoff, per framing and model, with 95 % Wilson intervals; the dashed line is the ' +
      `threshold ${o.threshold}. A framing below it, or below another framing of the model by more than sampling error, is not shown ` +
      'payoff-equivalent for that model.'), {
      title: { text: 'Comprehension probes', subtitle: o.subtitle },
      data: { values: points.map((p) => ({ ...p, threshold: o.threshold })) },
      facet: { row: { field: 'model', type: 'nominal', sort: [...o.models], header: { title: null, labelFontWeight: 'bold' } } },
      spec: {
        width: 300,
        height: { step: 26 },
        layer: [
          // One rule per panel (the threshold aggregated over the panel's rows), not one per row.
          { mark: { type: 'rule', strokeDash: [4, 3], color: COLORS.neutral }, encoding: { x: { field: 'threshold', aggregate: 'min', ...x() } } },
          { mark: { type: 'rule', strokeWidth: 2.5 }, encoding: { y, x: { field: 'lo', ...x() }, x2: { field: 'hi' }, color } },
          {
            mark: { type: 'point', filled: true, size: 70, opacity: 1 },
            encoding: {
              y, x: { field: 'accuracy', ...x() }, color,
              tooltip: [
                { field: 'model', type: 'nominal', title: 'Model' }, { field: 'framing', type: 'nominal', title: 'Framing' },
                { field: 'asked', type: 'quantitative', title: 'Probes' }, { field: 'accuracy', type: 'quantitative', title: 'Accuracy', format: F3 },
                { field: 'lo', type: 'quantitative', title: '2.5 %', format: F3 }, { field: 'hi', type: 'quantitative', title: '97.5 %', format: F3 },
              ],
            },
          },
        ],
      },
    });
}
