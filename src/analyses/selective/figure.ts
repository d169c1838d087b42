/**
 * The selective-robustness plane (the context-enrichment paper §R): x = surface sensitivity (lower is better), y =
 * world responsiveness (should be above 0), one mark per model × condition with its 95 % interval
 * on both axes. A run and the published metrics draw with this one function; each source gets its
 * own panel with the same axes, so they sit on the same plane. The verdict thresholds are drawn as
 * a dashed vertical line (ε, the equivalence margin of surface sensitivity: the verdict compares
 * the simultaneous bounds of equivalence.ts with it, which are not drawn) and a horizontal line
 * (the world-responsiveness interval must lie above it); the caption states the rule from the
 * thresholds drawn.
 */
import { COLORS, defineFigure, F3, ONE_ROW, type Figure } from '../../render/figure.js';
import { DEFAULT_THRESHOLDS, type VerdictThresholds } from './estimand.js';
import { verdictRuleText } from './equivalence.js';

export interface PlaneRow {
  /** Panel: "This run …" or the published table's label. */
  readonly source: string;
  readonly model: string;
  readonly condition: string;
  readonly ss: number; readonly ssLo: number; readonly ssHi: number;
  readonly wr: number; readonly wrLo: number; readonly wrHi: number;
  readonly verdict?: string;
}

export interface PlaneOptions {
  readonly id?: string;
  readonly title?: string;
  readonly subtitle: string;
  /** Legend order of the conditions (design order); others follow in row order. */
  readonly conditions?: readonly string[];
  readonly thresholds?: VerdictThresholds;
}

/** Condition colours (Tableau 10), in condition order. */
const PALETTE = [COLORS.base, COLORS.alt, COLORS.accent, '#72b7b2', '#54a24b', '#eeca3b', '#b279a2', '#ff9da6', '#9d755d', '#bab0ac'];

const uniq = (xs: readonly string[]) => [...new Set(xs)];

/**
 * What the plane draws and the verdict rule, from the thresholds drawn: the bars are each
 * estimate's 95 % interval, the dashed and solid lines ε and the world-responsiveness threshold;
 * invariance is decided on simultaneous bounds the figure does not draw.
 */
function planeCaption(t: VerdictThresholds, run: boolean): string {
  return `One mark per model × condition with 95 % intervals on both axes${run ? ' (resampling the calls within each cell)' : ''}. `
    + 'The dashed line is the equivalence margin ε of surface sensitivity, the solid line the world-responsiveness threshold. '
    + `Verdict: ${verdictRuleText(t)}. `
    + (run
      ? ('The simultaneous bounds are not drawn (reports/selective-equivalence.csv): the horizontal bar is the estimate\'s own interval, so a mark left of ' +
        'the dashed line may still be inconclusive; each mark of the run gives its verdict in its tooltip.')
      : 'A published table gives no simultaneous bounds, so its marks carry no verdict here: a mark left of the dashed line is not thereby invariant.');
}

export function selectivePlaneFigure(rows: readonly PlaneRow[], o: PlaneOptions): Figure {
  const t = o.thresholds ?? DEFAULT_THRESHOLDS;
  const conditions = uniq([...(o.conditions ?? []).filter((c) => rows.some((r) => r.condition === c)), ...rows.map((r) => r.condition)]);
  const sources = uniq(rows.map((r) => r.source));
  const models = uniq(rows.map((r) => r.model));
  const xMax = Math.max(t.maxSurface * 2, ...rows.map((r) => r.ssHi));
  const yMin = Math.min(t.minWorldLo, ...rows.map((r) => r.wrLo));
  const yMax = Math.max(t.minWorldLo, ...rows.map((r) => r.wrHi));
  const q = 'quantitative' as const;
  const axis = { format: '.0%', tickCount: 6 };
  const x = { field: 'ss', type: q, title: 'Surface sensitivity (lower: invariant)',
    scale: { domain: [0, Math.min(1, Math.ceil(xMax * 10) / 10)], nice: false }, axis };
  const y = { field: 'wr', type: q, title: 'World responsiveness (registered direction)',
    scale: { domain: [Math.max(-1, Math.floor(yMin * 10) / 10), Math.min(1, Math.ceil(yMax * 10) / 10)], nice: false }, axis };
  const color = { field: 'condition', type: 'nominal' as const, title: 'Condition', scale: { domain: conditions, range: PALETTE.slice(0, Math.max(1,
    conditions.length)) } };
  return defineFigure(
    o.id ?? 'selective-plane',
    o.title ?? 'Selective robustness: surface sensitivity vs world responsiveness',
    planeCaption(t, rows.some((r) => r.verdict !== undefined)),
    {
      title: { text: o.title ?? 'Selective robustness plane', subtitle: o.subtitle },
      data: { values: rows.map((r) => ({ ...r })) },
      facet: { column: { field: 'source', type: 'nominal', sort: sources, header: { title: null, labelFontWeight: 'bold', labelFontSize: 12.5 } } },
      spacing: 28,
      spec: {
        width: 320,
        height: 300,
        layer: [
          { mark: { type: 'rule', strokeDash: [5, 4], color: COLORS.neutral, strokeWidth: 1 }, transform: ONE_ROW, encoding: { x: { datum: t.maxSurface,
            type: 'quantitative' } } },
          { mark: { type: 'rule', color: COLORS.neutral, strokeWidth: 1 }, transform: ONE_ROW, encoding: { y: { datum: t.minWorldLo, type: 'quantitative' } } },
          { mark: { type: 'rule', strokeWidth: 1.6, opacity: 0.8 }, encoding: { x: { ...x, field: 'ssLo' }, x2: { field: 'ssHi' }, y, color } },
          { mark: { type: 'rule', strokeWidth: 1.6, opacity: 0.8 }, encoding: { y: { ...y, field: 'wrLo' }, y2: { field: 'wrHi' }, x, color } },
          {
            mark: { type: 'point', filled: true, size: 80, opacity: 1, stroke: 'white', strokeWidth: 0.8 },
            encoding: {
              x, y, color,
              shape: { field: 'model', type: 'nominal', title: 'Model', scale: { domain: models, range: ['circle', 'square', 'triangle-up', 'diamond', 'cross',
                'triangle-down'].slice(0, Math.max(1, models.length)) } },
              tooltip: [
                { field: 'source', type: 'nominal', title: 'Source' },
                { field: 'model', type: 'nominal', title: 'Model' },
                { field: 'condition', type: 'nominal', title: 'Condition' },
                { field: 'ss', type: 'quantitative', title: 'Surface sensitivity', format: F3 },
                { field: 'ssLo', type: 'quantitative', title: 'SS 2.5 %', format: F3 },
                { field: 'ssHi', type: 'quantitative', title: 'SS 97.5 %', format: F3 },
                { field: 'wr', type: 'quantitative', title: 'World responsiveness', format: F3 },
                { field: 'wrLo', type: 'quantitative', title: 'WR 2.5 %', format: F3 },
                { field: 'wrHi', type: 'quantitative', title: 'WR 97.5 %', format: F3 },
                ...(rows.some((r) => r.verdict !== undefined) ? [{ field: 'verdict', type: 'nominal', title: 'Verdict' } as const] : []),
              ],
            },
          },
        ],
      },
    },
  );
}
