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

const PALETTE = [COLORS.base, COLORS.alt, COLORS.neutral, COLORS.accent, '#72b7b2', '#b279a2', '#9d755d', '#eeca3b'];

function facet(o: RepeatedChartOptions) {
  return {
    row: {
      field: 'panel', type: 'nominal' as const, sort: [...o.panels],
      header: { title: null, labelAngle: 0, labelOrient: 'top' as const, labelAnchor: 'start' as const, labelFontWeight: 'bold' as const, labelPadding: 4 },
    },
  };
}

function color(o: RepeatedChartOptions) {
  return { field: 'opponent', type: 'nominal' as const, title: 'Opponent', sort: [...o.opponents], scale: { domain: [...o.opponents], range: o.opponents.map((_, i) => PALETTE[i % PALETTE.length]) } };
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
    { mark: { type: 'area', opacity: 0.18 }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color: color(o) } },
    { mark: { type: 'line', strokeWidth: 2 }, encoding: { x, y: rate('cooperation', 'Cooperation'), color: color(o) } },
    {
      mark: { type: 'point', filled: true, size: 36, opacity: 1 },
      encoding: {
        x, y: rate('cooperation', 'Cooperation'), color: color(o),
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
    { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x, xOffset, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color: color(o) } },
    {
      mark: { type: 'point', filled: true, size: 60, opacity: 1 },
      encoding: {
        x, xOffset, y: rate('p_cooperate', 'P(cooperate)'), color: color(o),
        tooltip: tooltip({ field: 'previous', type: 'nominal', title: 'Previous' }, 'p_cooperate', 'P(cooperate)'),
      },
    },
  ]);
}
