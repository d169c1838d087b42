import type { LayerSpec } from 'vega-lite/types_unstable/spec/index.js';
import type { Field } from 'vega-lite/types_unstable/channeldef.js';
import { nice } from 'd3-array';
import { COLORS, defineFigure, F3, ONE_ROW, type Figure } from '../figure.js';
import { Z90, Z95, Z99 } from '../../stats/normal.js';

/** One line of a meta-analytic forest plot: a cell's effect, a pooled estimate or a prediction interval. */
export interface MetaForestRow {
  /** The y label, unique per row ("study · model · game", "model: GPT-4 (pooled)"). */
  readonly label: string;
  readonly estimate: number;
  readonly lo: number;
  readonly hi: number;
  /** Cells are points, pooled rows diamonds, a prediction interval a thin line. */
  readonly kind: 'Cell' | 'Pooled' | 'Prediction interval';
}

/** How each kind of row is drawn: line width, colour, and the point mark (none for a prediction interval). */
const KINDS = [
  { kind: 'Cell', width: 1.5, color: COLORS.base, shape: 'circle', size: 30 },
  { kind: 'Pooled', width: 2.5, color: COLORS.neutral, shape: 'diamond', size: 110 },
  { kind: 'Prediction interval', width: 4, color: COLORS.alt, shape: undefined, size: 0 },
] as const;

const TOOLTIP = [
  { field: 'label', type: 'nominal', title: 'Row' },
  { field: 'estimate', type: 'quantitative', title: 'Estimate', format: F3 },
  { field: 'lo', type: 'quantitative', title: '2.5 %', format: F3 },
  { field: 'hi', type: 'quantitative', title: '97.5 %', format: F3 },
] as const;

/**
 * The x axis of a forest plot as metafor's forest() sets it (`alim`): the cells' intervals — the
 * pooled rows' when no cell is drawn — and the zero line, widened to round numbers. A pooled
 * interval or a prediction interval beyond it is cut at the edge with an arrow, not allowed to
 * set the scale (a wide prediction interval would squeeze every cell into a corner).
 */
export function forestDomain(rows: readonly MetaForestRow[]): [number, number] {
  const cells = rows.filter((r) => r.kind === 'Cell');
  const basis = cells.length ? cells : rows.filter((r) => r.kind === 'Pooled');
  const xs = [0, ...basis.flatMap((r) => [r.lo, r.hi, r.estimate])].filter(Number.isFinite);
  let [lo, hi] = xs.reduce(([a, b], x) => [Math.min(a, x), Math.max(b, x)], [Infinity, -Infinity]);
  if (lo === hi) [lo, hi] = [lo - 1, hi + 1];
  const [a, b] = nice(lo, hi, 5);
  return [a, b];
}

/** Where a row's interval is drawn within the axis, and its ends: a cap where it ends inside, an arrow where it is cut. */
function drawn(r: MetaForestRow, [a, b]: readonly [number, number]) {
  const ends = ([['lo', r.lo < a, a], ['hi', r.hi > b, b]] as const).map(([side, cut, edge]) => ({
    label: r.label, kind: r.kind, side, cut, x: cut ? edge : r[side],
  }));
  return { row: { ...r, x_lo: Math.max(r.lo, a), x_hi: Math.min(r.hi, b) }, ends };
}

function kindLayers(k: typeof KINDS[number], y: object, x: object): LayerSpec<Field>['layer'] {
  const only = [{ filter: { field: 'kind', equal: k.kind } }];
  const rule = { transform: only, mark: { type: 'rule' as const, strokeWidth: k.width, color: k.color }, encoding: { y, x: { ...x, field: 'x_lo' },
    x2: { field: 'x_hi' }, tooltip: TOOLTIP } };
  if (k.shape === undefined) return [rule] as LayerSpec<Field>['layer'];
  const point = {
    transform: only, mark: { type: 'point' as const, filled: true, opacity: 1, shape: k.shape, size: k.size, color: k.color },
    encoding: { y, x: { ...x, field: 'estimate' }, tooltip: TOOLTIP },
  };
  return [rule, point] as LayerSpec<Field>['layer'];
}

/** The two sides of an interval cut at the axis: the arrow's shape, and its offset that puts its tip at the edge. */
const ARROWS = [{ side: 'lo', shape: 'triangle-left', xOffset: 4 }, { side: 'hi', shape: 'triangle-right', xOffset: -4 }] as const;

/** The prediction interval's ends inside the axis as caps; every end cut at the axis as an arrow pointing out, in its row's colour. */
function endLayers(ends: readonly ReturnType<typeof drawn>['ends'][number][], y: object, x: object): LayerSpec<Field>['layer'] {
  const caps = ends.filter((e) => !e.cut && e.kind === 'Prediction interval');
  const color = { field: 'kind', type: 'nominal', scale: { domain: KINDS.map((k) => k.kind), range: KINDS.map((k) => k.color) }, legend: null };
  const arrows = ARROWS.map((a) => ({ ...a, at: ends.filter((e) => e.cut && e.side === a.side) })).filter((a) => a.at.length);
  return [
    ...(caps.length ? [{ data: { values: caps }, mark: { type: 'tick' as const, thickness: 2, size: 10, color: COLORS.alt }, encoding: { y, x: { ...x,
      field: 'x' } } }] : []),
    ...arrows.map((a) => ({
      data: { values: a.at }, mark: { type: 'point' as const, filled: true, opacity: 1, size: 70, shape: a.shape, xOffset: a.xOffset },
      encoding: { y, x: { ...x, field: 'x' }, color },
    })),
  ] as LayerSpec<Field>['layer'];
}

/** The share of the cut range added on each side of the forest plot's scale, and its most tick labels. */
const FOREST_MARGIN = 0.04;
const FOREST_TICKS = 6;

/**
 * Forest plot: every row's estimate with its interval, in the given order (cells grouped by
 * study and model, then the pooled diamonds and the prediction interval), a zero line; the axis
 * spans the cells (forestDomain), an interval beyond it is cut there with an arrow, and the
 * caption says so.
 */
export function metaForest(rows: readonly MetaForestRow[], o: { readonly effect: string; readonly subtitle: string; readonly caption: string }): Figure {
  const y = { field: 'label', type: 'nominal', sort: rows.map((r) => r.label), title: null, axis: { labelPadding: 6 } } as const;
  const domain = forestDomain(rows);
  // The scale reaches a margin past the cut, so an arrow (or a bar's end) at the cut stays clear of the plot's edge;
  // at most FOREST_TICKS labels, so "−0.20" and "−0.10" never touch at 360 px.
  const margin = FOREST_MARGIN * (domain[1] - domain[0]);
  const scale = { domain: [domain[0] - margin, domain[1] + margin], nice: false, zero: false };
  const x = { type: 'quantitative', title: `${o.effect} (95 % interval)`, scale, axis: { format: '.2f', tickCount: FOREST_TICKS, labelOverlap: 'greedy',
    labelFlush: false } } as const;
  const shown = rows.map((r) => drawn(r, domain));
  const ends = shown.flatMap((s) => s.ends);
  const cut = [...new Set(ends.filter((e) => e.cut).map((e) => e.label))];
  const caption = cut.length === 0 ? o.caption
    : (`${o.caption} The axis spans the cells' intervals; ${cut.length === 1 ? 'an interval runs' : 'intervals run'} beyond it (${cut.join('; ')}), cut at ` +
      `the edge with an arrow (the tooltip and the CSV give ${cut.length === 1 ? 'its' : 'their'} ends).`);
  return defineFigure('meta-forest', 'Forest plot: every cell, the pooled estimates and the prediction interval', caption, {
    title: { text: `Framing effects (${o.effect}) with 95 % intervals`, subtitle: o.subtitle },
    data: { values: shown.map((s) => s.row) },
    width: 360,
    height: { step: 16 },
    layer: [
      { mark: { type: 'rule', color: '#999999', strokeDash: [4, 3] }, transform: ONE_ROW, encoding: { x: { datum: 0, type: 'quantitative', scale: x.scale } } },
      ...KINDS.flatMap((k) => kindLayers(k, y, x)),
      ...endLayers(ends, y, x),
    ],
  });
}

/** One point of a funnel plot. */
export interface FunnelPoint {
  readonly study: string;
  readonly label: string;
  readonly yi: number;
  readonly se: number;
}

const at = (p: FunnelPoint) => `${p.yi.toPrecision(4)} ${p.se.toPrecision(4)}`;

/**
 * Each point with its marker size: 36 px² alone; where points coincide, the first drawn is the
 * largest and each later one smaller, so every study's colour shows as a ring (a bullseye).
 */
export function ringed(points: readonly FunnelPoint[]): (FunnelPoint & { size: number })[] {
  const keys = points.map(at);
  const count = new Map<string, number>();
  for (const k of keys) count.set(k, (count.get(k) ?? 0) + 1);
  const drawn = new Map<string, number>();
  return points.map((p, j) => {
    const i = drawn.get(keys[j]) ?? 0;
    drawn.set(keys[j], i + 1);
    return { ...p, size: 36 + 64 * (count.get(keys[j])! - 1 - i) };
  });
}

/**
 * Points drawn at one place (the same effect and standard error to 4 significant digits, closer
 * than a marker's width), as labels "×n" with the studies they come from; a point alone has none.
 */
export function coincidentLabels(points: readonly FunnelPoint[]): { yi: number; se: number; text: string; studies: string }[] {
  const groups = new Map<string, FunnelPoint[]>();
  for (const p of points) { const g = groups.get(at(p)); if (g) g.push(p); else groups.set(at(p), [p]); }
  return [...groups.values()].filter((g) => g.length > 1)
    .map((g) => ({ yi: g[0].yi, se: g[0].se, text: `×${g.length}`, studies: [...new Set(g.map((p) => p.study))].join(', ') }));
}

/** The significance contours of the funnel plot: two-sided p, its normal quantile, its grey. */
const CONTOURS = [{ p: 0.1, z: Z90, color: '#bbbbbb' }, { p: 0.05, z: Z95, color: '#888888' }, { p: 0.01, z: Z99, color: '#555555' }] as const;

/** The two slanted lines centre ± z·se of a funnel plot, from se = 0 to maxSe: two points per line, each keyed by its line. */
const slantedLines = (centre: number, z: number, maxSe: number, key: (side: -1 | 1) => string) =>
  [0, maxSe].flatMap((se) => ([-1, 1] as const).map((side) => ({ se, x: centre + side * z * se, line: key(side) })));

/**
 * Funnel plot: each cell's effect against its standard error (axis reversed, precise cells at
 * the top), with the pooled estimate and its pseudo 95 % region estimate ± 1.96·se. Points that
 * coincide (two studies with identical effects) carry a count "×n", so no study's points vanish
 * under another's.
 */
export function metaFunnel(points: readonly FunnelPoint[], o: { readonly effect: string; readonly estimate: number; readonly subtitle: string }): Figure {
  const maxSe = points.reduce((m, p) => Math.max(m, p.se), 1e-12);
  const labels = coincidentLabels(points);
  const funnel = slantedLines(o.estimate, Z95, maxSe, (side) => (side < 0 ? 'left' : 'right'));
  // Contours of significance about 0 (Peters et al. 2008): where a cell's two-sided p would be 0.10, 0.05 and 0.01.
  const contours = CONTOURS.flatMap((c) => slantedLines(0, c.z, maxSe, (side) => `${c.p}${side}`).map((l) => ({ ...l, p: c.p })));
  return defineFigure('meta-funnel', 'Funnel plot: effect against its standard error',
    (`Each cell's effect (x) against its standard error (y, reversed: precise cells at the top), coloured by ` +
      `study${labels.length ? '; "×n" beside a point counts the cells drawn at that one place (identical effects, e.g. of two studies), drawn as rings, '
        + 'one colour per study' : ''}. The vertical line is the pooled estimate; the slanted lines are the estimate ± ${Z95.toFixed(2)}·se, `
        + 'where 95 % of cells would '
        + 'fall if they shared one effect. The grey contours about 0 mark where a cell would reach two-sided p = 0.10, 0.05 and 0.01 '
        + '(a contour-enhanced funnel plot): cells missing only from the region of no significance point to publication bias; '
        + 'asymmetry elsewhere, to heterogeneity or other small-study effects.'), {
      title: { text: `Funnel plot (${o.effect})`, subtitle: o.subtitle },
      width: 360,
      height: 280,
      layer: [
        {
          data: { values: funnel },
          mark: { type: 'line', color: '#999999', strokeDash: [4, 3] },
          encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'se', type: 'quantitative' }, detail: { field: 'line', type: 'nominal' } },
        },
        { data: { values: [{ x: o.estimate }] }, mark: { type: 'rule', color: COLORS.neutral }, encoding: { x: { field: 'x', type: 'quantitative' } } },
        {
          data: { values: ringed(points) },
          mark: { type: 'point', filled: true, opacity: 0.85 },
          encoding: {
            size: { field: 'size', type: 'quantitative', scale: null, legend: null },
            x: { field: 'yi', type: 'quantitative', title: o.effect, axis: { format: '.2f' } },
            y: { field: 'se', type: 'quantitative', title: 'standard error', scale: { reverse: true, zero: true }, axis: { format: '.3f' } },
            color: { field: 'study', type: 'nominal', title: 'Study', sort: [...new Set(points.map((p) => p.study))] },
            tooltip: [
              { field: 'label', type: 'nominal', title: 'Cell' },
              { field: 'yi', type: 'quantitative', title: 'Effect', format: F3 },
              { field: 'se', type: 'quantitative', title: 'SE', format: F3 },
            ],
          },
        },
        ...(labels.length ? [{
          data: { values: labels },
          mark: { type: 'text' as const, align: 'left' as const, dx: 6, dy: -6, fontSize: 11, color: '#222222' },
          encoding: {
            x: { field: 'yi', type: 'quantitative' as const }, y: { field: 'se', type: 'quantitative' as const }, text: { field: 'text',
              type: 'nominal' as const },
            tooltip: [{ field: 'studies', type: 'nominal' as const, title: 'Studies' }, { field: 'text', type: 'nominal' as const, title: 'Cells here' }],
          },
        }] : []),
        ...CONTOURS.map((c) => ({
          data: { values: contours.filter((x) => x.p === c.p) },
          mark: { type: 'line' as const, strokeDash: [1, 2], color: c.color },
          encoding: { x: { field: 'x', type: 'quantitative' as const }, y: { field: 'se', type: 'quantitative' as const },
            detail: { field: 'line', type: 'nominal' as const } },
        })),
      ],
    });
}
