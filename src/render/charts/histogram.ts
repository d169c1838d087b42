import type { LayerSpec } from 'vega-lite/types_unstable/spec/index.js';
import type { Field } from 'vega-lite/types_unstable/channeldef.js';
import { COLORS, defineFigure, F3, MARK_ROOM, type Figure } from '../figure.js';

export interface Bin {
  readonly start: number;
  readonly end: number;
  readonly count: number;
}

/**
 * Equal-width histogram of the finite values, `bins` bins from the minimum to the maximum
 * (the last bin closed). Binning here rather than in Vega keeps 10,000 replicates out of the
 * spec files. All values equal → one bin of zero width.
 */
export function histogram(values: ArrayLike<number>, bins: number): Bin[] {
  if (!Number.isInteger(bins) || bins < 1) throw new RangeError(`bins must be a positive integer: ${bins}`);
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min > max) return [];
  if (min === max) return [{ start: min, end: max, count: values.length - countNonFinite(values) }];
  const width = (max - min) / bins;
  const counts = new Array<number>(bins).fill(0);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    counts[Math.min(bins - 1, Math.floor((v - min) / width))]++;
  }
  return counts.map((count, b) => ({ start: min + b * width, end: b === bins - 1 ? max : min + (b + 1) * width, count }));
}

function countNonFinite(values: ArrayLike<number>): number {
  let k = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) k++;
  return k;
}

/** One panel: the replicate histogram of one statistic with its estimate and interval. */
export interface BootstrapPanel {
  /** Panel title and x-axis title, e.g. "Pooled R (conservative)". */
  readonly label: string;
  readonly bins: readonly Bin[];
  readonly estimate: number;
  readonly lo: number;
  readonly hi: number;
}

function panel(p: BootstrapPanel): LayerSpec<Field> {
  const marks = [
    { kind: '2.5 %', value: p.lo },
    { kind: 'estimate', value: p.estimate },
    { kind: '97.5 %', value: p.hi },
  ];
  const markTooltip = () => [
    { field: 'kind', type: 'nominal' as const, title: 'Marker' },
    { field: 'value', type: 'quantitative' as const, title: 'Value', format: F3 },
  ];
  return {
    title: { text: p.label, fontSize: 12.5,
      subtitle: `estimate ${p.estimate.toFixed(3)}, ${Number.isFinite(p.lo) ? `95 % interval [${p.lo.toFixed(3)}, ${p.hi.toFixed(
        3)}]` : 'no interval (fewer than 3 matches)'}`, subtitleFontSize: 11 },
    width: 250,
    height: 200,
    layer: [
      {
        data: { values: p.bins.map((b) => ({ ...b })) },
        mark: { type: 'bar', color: '#9ab6d3', stroke: '#6f93ba', strokeWidth: 0.5 },
        encoding: {
          x: { field: 'start', type: 'quantitative', bin: 'binned', title: 'Replicate value', scale: { zero: false, padding: MARK_ROOM },
            axis: { format: '.3f', tickCount: 5, labelOverlap: true } },
          x2: { field: 'end' },
          y: { field: 'count', type: 'quantitative', title: 'Replicates' },
          tooltip: [
            { field: 'start', type: 'quantitative', title: 'From', format: '.4f' },
            { field: 'end', type: 'quantitative', title: 'To', format: '.4f' },
            { field: 'count', type: 'quantitative', title: 'Replicates' },
          ],
        },
      },
      // no dashed ends where the statistic has no interval (fewer than 3 matches)
      ...(Number.isFinite(p.lo) && Number.isFinite(p.hi) ? [{
        data: { values: marks.filter((m) => m.kind !== 'estimate') },
        mark: { type: 'rule' as const, color: COLORS.accent, strokeWidth: 2, strokeDash: [5, 3] },
        encoding: { x: { field: 'value', type: 'quantitative' as const }, tooltip: markTooltip() },
      }] : []),
      {
        data: { values: marks.filter((m) => m.kind === 'estimate') },
        mark: { type: 'rule', color: '#222222', strokeWidth: 2 },
        encoding: { x: { field: 'value', type: 'quantitative' }, tooltip: markTooltip() },
      },
    ],
  };
}

/**
 * Bootstrap distributions of the pooled statistics (Same Game, Different Story §4.3: binomial bootstrap, 95 %
 * percentile interval): the replicate histogram with the point estimate (solid) and the
 * interval ends (dashed) marked. `of`: the statistics in words ("R and action shift").
 */
export function bootstrapFigure(panels: readonly BootstrapPanel[], of: string, subtitle: string,
  ends = 'the 2.5th and 97.5th percentiles, the ends of the 95 % interval'): Figure {
  return defineFigure(
    'bootstrap-pooled',
    'Bootstrap distributions of the pooled estimates',
    `Histograms of the bootstrap replicates of the pooled ${of}. The solid line is the point estimate; the dashed lines are ${ends}.`,
    {
      title: { text: 'Bootstrap distributions of the pooled estimates', subtitle },
      hconcat: panels.map(panel),
      spacing: 28,
    },
  );
}
