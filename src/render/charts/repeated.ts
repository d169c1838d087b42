import type { LayerSpec, UnitSpec } from 'vega-lite/types_unstable/spec/index.js';
import type { Field } from 'vega-lite/types_unstable/channeldef.js';
import { COLORS, defineFigure, F3, PLOT_WIDTH, type Figure } from '../figure.js';

/** One estimate of a repeated-play cell, drawn in the panel of its model, game and framing. */
interface PanelPoint {
  /** "model — game — framing": the panel. */
  readonly panel: string;
  readonly opponent: string;
  readonly lo: number;
  readonly hi: number;
  readonly n: number;
}
export interface RoundPoint extends PanelPoint { readonly round: number; readonly cooperation: number }
export interface ReactionPoint extends PanelPoint { readonly previous: string; readonly p_cooperate: number }

export interface RepeatedChartOptions {
  /** Panel and opponent order (the analysis's cell order). */
  readonly panels: readonly string[];
  readonly opponents: readonly string[];
  readonly subtitle: string;
}

/**
 * Opponent colours: twenty distinct hues (Tableau 10, then ten darker ones), the first being the
 * house base colour. Past twenty opponents the colours repeat with a dashed line and another point
 * shape, so no two opponents share both.
 */
const PALETTE = [
  COLORS.base, COLORS.alt, COLORS.accent, '#72b7b2', '#54a24b', '#eeca3b', '#b279a2', '#ff9da6', '#9d755d', '#bab0ac',
  '#1b3a6b', '#8c4a00', '#8e0c2a', '#00665e', '#2d6a1f', '#7a6200', '#5e3c99', '#c51b7d', COLORS.neutral, '#17becf',
];
const DASHES = [[1, 0], [6, 3], [2, 2], [8, 3, 2, 3]];
const SHAPES = ['circle', 'square', 'triangle-up', 'diamond'];
const cycle = <T>(list: readonly T[], i: number) => list[Math.floor(i / PALETTE.length) % list.length];

function facet(o: RepeatedChartOptions) {
  return {
    row: {
      field: 'panel', type: 'nominal' as const, sort: [...o.panels],
      // labelLimit 0: a panel's "model — game — framing" title is never cut.
      header: { title: null, labelAngle: 0, labelOrient: 'top' as const, labelAnchor: 'start' as const, labelFontWeight: 'bold' as const, labelPadding: 4, labelLimit: 0 },
    },
  };
}

/**
 * The opponent's colour. Every layer carries the same legend (Vega-Lite merges them), with the
 * swatch drawn opaque as the given symbol: the line or point, never the pale band.
 */
function color(o: RepeatedChartOptions, symbolType: 'stroke' | 'circle') {
  return {
    field: 'opponent', type: 'nominal' as const, title: 'Opponent', sort: [...o.opponents],
    scale: { domain: [...o.opponents], range: o.opponents.map((_, i) => PALETTE[i % PALETTE.length]) },
    legend: { symbolType, symbolOpacity: 1, symbolStrokeWidth: 2 },
  };
}

/** Past twenty opponents, a dash pattern (lines) or shape (points) per cycle of the palette; nothing below. */
function marker(o: RepeatedChartOptions, channel: 'strokeDash' | 'shape') {
  if (o.opponents.length <= PALETTE.length) return {};
  const range = o.opponents.map((_, i) => (channel === 'strokeDash' ? cycle(DASHES, i) : cycle(SHAPES, i)));
  return { [channel]: { field: 'opponent', type: 'nominal' as const, title: 'Opponent', sort: [...o.opponents], scale: { domain: [...o.opponents], range } } };
}

const rate = (field: string, title: string) => ({ field, type: 'quantitative' as const, title, scale: { domain: [0, 1] }, axis: { format: '.1f' } });

/** A point's tooltip: the opponent, where it sits on x, its rate with the interval, and its decisions. */
function tooltip(x: { field: string; type: 'nominal' | 'quantitative'; title: string }, field: string, title: string) {
  return [
    { field: 'opponent', type: 'nominal' as const, title: 'Opponent' }, x,
    ...[[field, title], ['lo', 'Lower'], ['hi', 'Upper']].map(([f, t]) => ({ field: f, type: 'quantitative' as const, title: t, format: F3 })),
    { field: 'n', type: 'quantitative' as const, title: 'Decisions' },
  ];
}

/** A figure of one panel per model, game and framing (rows), the given layers drawn in each. */
function panelFigure(id: string, title: string, description: string, o: RepeatedChartOptions, points: readonly PanelPoint[], layer: (LayerSpec<Field> | UnitSpec<Field>)[]): Figure {
  return defineFigure(id, title, description, {
    title: { text: title, subtitle: o.subtitle },
    data: { values: points.map((p) => ({ ...p })) },
    facet: facet(o),
    spacing: 14,
    spec: { width: PLOT_WIDTH, height: 160, layer },
  });
}

/**
 * Cooperation by round: per model, game and framing (one panel each), a line per opponent through
 * the rounds' cooperation rates, and a band for each round's interval (cluster bootstrap by match).
 */
export function roundsChart(points: readonly RoundPoint[], o: RepeatedChartOptions): Figure {
  const x = { field: 'round', type: 'quantitative' as const, title: 'Round', axis: { tickMinStep: 1, format: 'd' } };
  return panelFigure('repeated-rounds', 'Cooperation by round',
    'Share of cooperative decisions in each round, per opponent (one panel per model, game and framing). The band is the 95 % interval of each round\'s rate from the cluster bootstrap with the match as the cluster.',
    o, points, [
    { mark: { type: 'area', opacity: 0.18 }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color: color(o, 'stroke') } },
    { mark: { type: 'line', strokeWidth: 2 }, encoding: { x, y: rate('cooperation', 'Cooperation'), color: color(o, 'stroke'), ...marker(o, 'strokeDash') } },
    {
      mark: { type: 'point', filled: true, size: 36, opacity: 1 },
      encoding: {
        x, y: rate('cooperation', 'Cooperation'), color: color(o, 'stroke'), ...(o.opponents.length > PALETTE.length ? { shape: { ...marker(o, 'shape').shape, legend: null } } : {}),
        tooltip: tooltip({ field: 'round', type: 'quantitative', title: 'Round' }, 'cooperation', 'Cooperation'),
      },
    },
  ]);
}

/**
 * The reaction profile: P(cooperate) after each previous round — CC, CD (cooperated, was defected
 * on), DC, DD — per opponent, with intervals; reciprocity is a high CC and a low CD, forgiveness a
 * high CD.
 */
export function reactionsChart(points: readonly ReactionPoint[], o: RepeatedChartOptions): Figure {
  const x = { field: 'previous', type: 'nominal' as const, sort: ['CC', 'CD', 'DC', 'DD'], title: 'Previous round (own move, other\'s move)', axis: { labelAngle: 0 } };
  const xOffset = { field: 'opponent', type: 'nominal' as const, sort: [...o.opponents] };
  const defined = points.filter((p) => Number.isFinite(p.p_cooperate));
  return panelFigure('repeated-reactions', 'Reaction profile',
    'Probability of cooperating after each previous round (own move, the other\'s move; round 1 has none and is left out), per opponent, with 95 % intervals from the cluster bootstrap by match. Reciprocity: high after CC, low after CD; forgiveness: cooperation after CD.',
    o, defined, [
    { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x, xOffset, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color: color(o, 'circle') } },
    {
      mark: { type: 'point', filled: true, size: 60, opacity: 1 },
      encoding: {
        x, xOffset, y: rate('p_cooperate', 'P(cooperate)'), color: color(o, 'circle'), ...marker(o, 'shape'),
        tooltip: tooltip({ field: 'previous', type: 'nominal', title: 'Previous' }, 'p_cooperate', 'P(cooperate)'),
      },
    },
  ]);
}
