import { POOLED } from '../../core/names.js';
import { intervalKind, type TwoFramingAnalysis } from '../two-framing/index.js';
import { COLORS, defineFigure, F3, MARK_ROOM, ONE_ROW, type Figure } from '../../render/figure.js';
import { CAMERER_2016_RATIO, type SweepRow } from './attenuation.js';
import { DEFAULT_ATTENUATION } from '../../sources/input.js';
import { isExactMinimum, type TippingResult } from './tipping.js';
import { andList, auditedColumns, inConclusionOrder, noun, type Table3Column } from '../../stats/table3.js';

/**
 * Audit figures as pure Vega-Lite spec builders (render/figure.ts defineFigure, as every analysis's figures):
 * the attenuation sweep with the default and the Camerer et al. 2016 reference marked, and the
 * tipping points beside what reading error can reach.
 */
export interface SweepPoint {
  readonly attenuation: number;
  readonly group: string;
  readonly statistic: string;
  readonly estimate: number;
  readonly lo: number;
  readonly hi: number;
}

/** The sweep's points: per row, each audited column (panel "<label> (conservative)"). */
export function sweepPoints(rows: readonly SweepRow[], columns: readonly Table3Column[] = auditedColumns()): SweepPoint[] {
  return rows.flatMap((r) => columns.map((c) => {
    const v = r.values[c.column];
    return { attenuation: r.attenuation, group: r.group, statistic: `${c.label} (conservative)`, estimate: v.point, lo: v.lo, hi: v.hi };
  }));
}

/** Pixels kept free at the ends of the sweep's y scale: the labels of the default and Camerer rules sit in the top ones. */
const RULE_LABEL_ROOM = 16;
/** Legend entries per row of the attenuation sweep. */
const LEGEND_ROW = 8;
const BOLD_UNTITLED = { title: null, labelFontWeight: 'bold' } as const;
const GROUP_PALETTE = ['#4c78a8', '#f58518', '#54a24b', '#b279a2', '#9d755d', '#72b7b2'];
// Room at both ends, so the points at a = 0.5 and a = 1 are drawn whole.
const ATTENUATION_X = { field: 'attenuation', type: 'quantitative' as const, title: 'Attenuation a',
  scale: { domain: [0.5, 1], padding: MARK_ROOM, nice: false }, axis: { format: '.1f', values: [0.5, 0.6, 0.7, 0.8, 0.9, 1] } };
// Room at the top for the rules' labels: no line or band runs under them.
const ESTIMATE_Y = { field: 'estimate', type: 'quantitative' as const, title: 'Estimate (95 % interval)', scale: { zero: false, padding: RULE_LABEL_ROOM },
  axis: { format: '.2f' } };

/**
 * `intervals`: how the bands were made, "95 % <method> intervals" (`intervalKind`); one panel per
 * statistic of the points, in their order; `columns`: the audited columns, for the words.
 */
export function attenuationFigure(points: readonly SweepPoint[], groups: readonly string[], intervals: string,
  columns: readonly Table3Column[] = auditedColumns()): Figure {
  const what = andList(columns.map(noun));
  // Up to LEGEND_ROW entries the legend is one row below the chart; beyond, a grid of that many
  // columns with every entry (Vega's default would drop entries past 30, Pooled among them).
  const legend = groups.length <= LEGEND_ROW ? { symbolOpacity: 1 } : { symbolOpacity: 1, columns: LEGEND_ROW, symbolLimit: 0 };
  const color = { field: 'group', type: 'nominal', title: 'Model', sort: [...groups], legend,
    scale: { domain: [...groups], range: groups.map((g, i) => (g === POOLED ? COLORS.neutral : GROUP_PALETTE[i % GROUP_PALETTE.length])) } } as const;
  const marks = [
    { a: DEFAULT_ATTENUATION.reconstructed, label: `default ${DEFAULT_ATTENUATION.reconstructed.toFixed(2)}`, dash: [] as number[] },
    { a: CAMERER_2016_RATIO, label: `Camerer et al. 2016: ${CAMERER_2016_RATIO.toFixed(2)}`, dash: [5, 4] },
  ];
  return defineFigure(
    'audit-attenuation',
    'Attenuation sweep of the headline statistics',
    `Conservative ${what} per model and pooled for attenuation a from 0.50 to 1.00, with ${intervals} (bands). ` +
    (`The solid rule marks the default a = ${DEFAULT_ATTENUATION.reconstructed.toFixed(2)}; the dashed rule the average replication ` +
      `ratio ${CAMERER_2016_RATIO.toFixed(2)} of Camerer et al. 2016 (Science 351:1433).`),
    {
      title: { text: 'Attenuation sweep', subtitle: `Conservative transform: ${inConclusionOrder(columns).map((c) => c.text.formula).join(', ')}` },
      data: { values: points.map((p) => ({ ...p })) },
      facet: { column: { field: 'statistic', type: 'nominal', sort: [...new Set(points.map((p) => p.statistic))], header: BOLD_UNTITLED } },
      resolve: { scale: { y: 'independent' } },
      spacing: 24,
      spec: {
        width: 260,
        height: 220,
        layer: [
          { mark: { type: 'area', opacity: 0.18 }, encoding: { x: ATTENUATION_X, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color } },
          {
            mark: { type: 'line', point: { size: 22 } },
            encoding: {
              x: ATTENUATION_X, color, y: ESTIMATE_Y,
              tooltip: [
                { field: 'group', type: 'nominal', title: 'Model' },
                { field: 'attenuation', type: 'quantitative', title: 'a', format: '.2f' },
                { field: 'estimate', type: 'quantitative', title: 'Estimate', format: F3 },
                { field: 'lo', type: 'quantitative', title: '2.5 %', format: F3 },
                { field: 'hi', type: 'quantitative', title: '97.5 %', format: F3 },
              ],
            },
          },
          ...marks.map((m) => ({
            mark: { type: 'rule' as const, color: COLORS.accent, strokeDash: m.dash, strokeWidth: 1.5 }, transform: ONE_ROW,
            encoding: { x: { datum: m.a, type: 'quantitative' as const }, tooltip: { value: m.label } },
          })),
          ...marks.map((m, i) => ({
            transform: ONE_ROW,
            mark: { type: 'text' as const, color: COLORS.accent, fontSize: 10, align: (i === 0 ? 'left' : 'right') as 'left' | 'right', dx: i === 0 ? 3 : -3,
              baseline: 'top' as const },
            encoding: { x: { datum: m.a, type: 'quantitative' as const }, y: { value: 2 },
              text: { value: i === 0 ? m.a.toFixed(2) : `${m.a.toFixed(2)} (Camerer)` } },
          })),
        ],
      },
    },
  );
}

export interface TippingBar {
  readonly conclusion: string;
  readonly changes: number;
  readonly budget: number;
  readonly method: string;
}

export function tippingBars(results: readonly TippingResult[]): TippingBar[] {
  return results.filter((t) => t.changes !== undefined).map((t) => ({
    conclusion: t.statement.replace(/^the /, ''), changes: t.changes!, budget: t.readingError.budget,
    method: isExactMinimum(t.method) ? 'exact minimum' : 'upper bound (search)',
  }));
}

/** `label`: the reading error's own statement when it is not ±K counts per cell (a digitized figure's "±K px of the digitized figure"). */
export function tippingFigure(bars: readonly TippingBar[], K: number, label?: string): Figure {
  const y = { field: 'conclusion', type: 'nominal', title: null, sort: bars.map((b) => b.conclusion) } as const;
  const x = { type: 'quantitative', scale: { type: 'log', domainMin: 1 }, title: 'Single-count changes (log scale)' } as const;
  return defineFigure(
    'audit-tipping-points',
    'Tipping points against reading error',
    `Bars: the fewest single-count changes found to overturn each conclusion (exact where marked, otherwise an upper bound from the search). ` +
    `Ticks: the most changes a reading error of ${label ?? `±${K} count per cell`} can make on the cells behind that conclusion.`,
    {
      title: { text: 'How many counts overturn each conclusion', subtitle: `Bars: changes needed; ticks: reading error ${label ?? `±${K} per cell`}` },
      data: { values: bars.map((b) => ({ ...b })) },
      width: 360,
      height: { step: 28 },
      layer: [
        {
          mark: { type: 'bar', height: 16 },
          encoding: {
            y, x: { ...x, field: 'changes' }, x2: { datum: 1 },
            color: { field: 'method', type: 'nominal', title: null, scale: { domain: ['exact minimum', 'upper bound (search)'], range: [COLORS.base,
              COLORS.alt] } },
            tooltip: [
              { field: 'conclusion', type: 'nominal', title: 'Conclusion' },
              { field: 'changes', type: 'quantitative', title: 'Changes' },
              { field: 'method', type: 'nominal', title: 'Method' },
              { field: 'budget', type: 'quantitative', title: `Reading error ${label ?? `±${K}`}: at most` },
            ],
          },
        },
        { mark: { type: 'tick', color: COLORS.neutral, thickness: 3, size: 24 }, encoding: { y, x: { ...x, field: 'budget' } } },
      ],
    },
  );
}

/** The attenuation figure of an audit: known as soon as the two-framing analysis is (a command can draw it early). */
export function sweepFigure(sweep: readonly SweepRow[], a: TwoFramingAnalysis): Figure {
  return attenuationFigure(sweepPoints(sweep), [...a.layout.models, POOLED], `95 % ${intervalKind(a)} intervals`);
}

export function auditFigures(sweep: readonly SweepRow[], tipping: readonly TippingResult[], K: number, a: TwoFramingAnalysis, label?: string): Figure[] {
  return [sweepFigure(sweep, a), tippingFigure(tippingBars(tipping), K, label)];
}
