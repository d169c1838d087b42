import type { LayerSpec, UnitSpec } from 'vega-lite/types_unstable/spec/index.js';
import type { Field } from 'vega-lite/types_unstable/channeldef.js';
import { COLORS, defineFigure, F3, MARK_ROOM, type Figure } from '../figure.js';

/** One estimate of a repeated-play cell, drawn in the panel of its model (game, framing). */
interface PanelPoint {
  /** The panel's title: "model — game — framing" (and a part "opponents 9–16 of 20" past MAX_SERIES). */
  readonly panel: string;
  readonly opponent: string;
  readonly lo: number;
  readonly hi: number;
  readonly n: number;
}
export interface RoundPoint extends PanelPoint { readonly round: number; readonly cooperation: number }
export interface ReactionPoint extends PanelPoint { readonly previous: string; readonly p_cooperate: number }

export interface RepeatedChartOptions {
  /** Panel order (the analysis's cell order). */
  readonly panels: readonly string[];
  /** Opponent order: an opponent's colour and shape are the same in every panel. */
  readonly opponents: readonly string[];
  readonly subtitle: string;
  /** Whether any interval is drawn (the caption says so; true when not given). */
  readonly intervals?: boolean;
}

/** Series (opponents) one panel shows at most; a model with more opponents gets a panel per MAX_SERIES of them. */
export const MAX_SERIES = 8;
/** One panel's plotting area, px. */
export const PANEL_WIDTH = 300;
export const PANEL_HEIGHT = 140;

/**
 * The height rule: panels in two columns (one column up to two panels), so the figure grows by
 * one row of PANEL_HEIGHT px (plus its title and x axis, about 60 px) per two panels.
 */
export const panelColumns = (panels: number): number => (panels <= 2 ? 1 : 2);

/**
 * Opponent colours: twenty distinct hues (Tableau 10, then ten darker ones), the first being the
 * house base colour; each opponent also has a point shape and a dash pattern, so the series of a
 * panel differ in shape and line as well as hue (and stay apart in greyscale).
 */
export const PALETTE = [
  COLORS.base, COLORS.alt, COLORS.accent, '#72b7b2', '#54a24b', '#eeca3b', '#b279a2', '#ff9da6', '#9d755d', '#bab0ac',
  '#1b3a6b', '#8c4a00', '#8e0c2a', '#00665e', '#2d6a1f', '#7a6200', '#5e3c99', '#c51b7d', COLORS.neutral, '#17becf',
];
const SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'cross', 'triangle-down', 'triangle-left', 'triangle-right'];
const DASHES = [[1, 0], [6, 3], [2, 2], [8, 3, 2, 3], [1, 0], [6, 3], [2, 2], [8, 3, 2, 3]];

/** A channel of the opponent whose domain is the panel's opponents and whose range follows their global order. */
function byOpponent(o: RepeatedChartOptions, own: readonly string[], range: (i: number) => unknown, legend: Record<string, unknown> | null) {
  return {
    field: 'opponent', type: 'nominal' as const, title: 'Opponent', sort: [...own],
    scale: { domain: [...own], range: own.map((op) => range(o.opponents.indexOf(op))) },
    legend,
  };
}
const LEGEND = { symbolOpacity: 1, symbolStrokeWidth: 2 };
const color = (o: RepeatedChartOptions, own: readonly string[], symbolType?: 'stroke') =>
  byOpponent(o, own, (i) => PALETTE[i % PALETTE.length], symbolType ? { ...LEGEND, symbolType } : LEGEND);
const shape = (o: RepeatedChartOptions, own: readonly string[]) => byOpponent(o, own, (i) => SHAPES[i % SHAPES.length], LEGEND);
const dash = (o: RepeatedChartOptions, own: readonly string[]) => byOpponent(o, own, (i) => DASHES[i % DASHES.length], LEGEND);

const rate = (field: string, title: string) => ({ field, type: 'quantitative' as const, title,
  scale: { domain: [0, 1], padding: MARK_ROOM, nice: false }, axis: { format: '.1f',
  tickCount: 5 } });

/** A point's tooltip: the opponent, where it sits on x, its rate with the interval, and its decisions. */
function tooltip(x: { field: string; type: 'nominal' | 'quantitative'; title: string }, field: string, title: string) {
  return [
    { field: 'opponent', type: 'nominal' as const, title: 'Opponent' }, x,
    ...[[field, title], ['lo', 'Lower'], ['hi', 'Upper']].map(([f, t]) => ({ field: f, type: 'quantitative' as const, title: t, format: F3 })),
    { field: 'n', type: 'quantitative' as const, title: 'Decisions' },
  ];
}

type Layers = (own: readonly string[]) => (LayerSpec<Field> | UnitSpec<Field>)[];

/**
 * A figure of one panel per model (game, framing), each its own view with its own axes and a
 * legend of its own opponents, in panelColumns columns.
 */
function panelFigure(id: string, title: string, description: string, o: RepeatedChartOptions, points: readonly PanelPoint[], layers: Layers): Figure {
  const views = o.panels.map((panel) => {
    const rows = points.filter((p) => p.panel === panel);
    const own = o.opponents.filter((op) => rows.some((p) => p.opponent === op));
    return {
      title: { text: panel, anchor: 'start' as const, fontSize: 12, fontWeight: 'bold' as const, limit: 0 },
      data: { values: rows.map((p) => ({ ...p })) },
      width: PANEL_WIDTH, height: PANEL_HEIGHT,
      layer: layers(own),
    };
  });
  return defineFigure(id, title, description, {
    title: { text: title, subtitle: o.subtitle },
    concat: views,
    columns: panelColumns(views.length),
    spacing: { row: 22, column: 28 },
    resolve: { scale: { color: 'independent', shape: 'independent', strokeDash: 'independent' }, legend: { color: 'independent', shape: 'independent',
      strokeDash: 'independent' } },
    config: { legend: { orient: 'right', direction: 'vertical' } },
  } as never);
}

/**
 * Cooperation by round: per model (one panel each), a line per opponent through the rounds'
 * cooperation rates, and a band for each round's interval (match as cluster; the method is the subtitle's).
 */
export function roundsChart(points: readonly RoundPoint[], o: RepeatedChartOptions): Figure {
  const x = { field: 'round', type: 'quantitative' as const, title: 'Round', scale: { padding: MARK_ROOM, nice: false },
    axis: { tickMinStep: 1, format: 'd' } };
  return panelFigure('repeated-rounds', 'Cooperation by round',
    ('Share of cooperative decisions in each round, per opponent (one panel per model, game and framing; at most eight opponents a panel). ' +
      (o.intervals === false ? 'No band is drawn: no round\'s rate has an interval (each rests on too few matches).'
        : 'The band is the 95 % interval of each round\'s rate, with the match as the cluster.')),
    o, points, (own) => [
      { mark: { type: 'area', opacity: 0.14 }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color: color(o, own, 'stroke') } },
      { mark: { type: 'line', strokeWidth: 2 }, encoding: { x, y: rate('cooperation', 'Cooperation'), color: color(o, own, 'stroke'), strokeDash: dash(o,
        own) } },
      {
        mark: { type: 'point', filled: true, size: 40, opacity: 1 },
        encoding: {
          x, y: rate('cooperation', 'Cooperation'), color: color(o, own, 'stroke'), shape: shape(o, own),
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
  const x = { field: 'previous', type: 'nominal' as const, sort: ['CC', 'CD', 'DC', 'DD'], scale: { domain: ['CC', 'CD', 'DC', 'DD'] },
    title: 'Previous round (own move, other\'s move)', axis: { labelAngle: 0 } };
  const defined = points.filter((p) => Number.isFinite(p.p_cooperate));
  return panelFigure('repeated-reactions', 'Reaction profile',
    ('Probability of cooperating after each previous round (own move, the other\'s move; round 1 has none and is left out), per opponent, ' +
      (o.intervals === false ? 'without intervals (each rate rests on too few matches)' : 'with 95 % intervals (match as cluster)') +
      '. Reciprocity: high after CC, low after CD; forgiveness: cooperation after CD.'),
    o, defined, (own) => {
      const xOffset = { field: 'opponent', type: 'nominal' as const, sort: [...own] };
      return [
        { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x, xOffset, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color: color(o,
          own) } },
        {
          mark: { type: 'point', filled: true, size: 50, opacity: 1 },
          encoding: {
            x, xOffset, y: rate('p_cooperate', 'P(cooperate)'), color: color(o, own), shape: shape(o, own),
            tooltip: tooltip({ field: 'previous', type: 'nominal', title: 'Previous' }, 'p_cooperate', 'P(cooperate)'),
          },
        },
      ];
    });
}
