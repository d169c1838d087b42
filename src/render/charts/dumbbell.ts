import { COLORS, defineFigure, F3, MARK_ROOM, PLOT_WIDTH, type Figure, modelRowFacet } from '../figure.js';

/** One cell of Table 2: the cooperation rate of one model × game under one framing. */
export interface RatePoint {
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly rate: number;
  readonly count: number;
  readonly n: number;
}

export interface DumbbellOptions {
  readonly base: string;
  readonly alt: string;
  /** Row (model) and y (game) order: input order, as in the seed's Table 2. */
  readonly models: readonly string[];
  readonly games: readonly string[];
}

function point(framing: string, size: number, o: DumbbellOptions) {
  return {
    // A field predicate: vega-lite writes the value as a JSON string literal, so a framing name
    // cannot inject an expression.
    transform: [{ filter: { field: 'framing', equal: framing } }],
    mark: { type: 'point' as const, filled: true, opacity: 1, stroke: 'white', strokeWidth: 1, size },
    encoding: {
      y: gameAxis(o),
      x: { field: 'rate', type: 'quantitative' as const, scale: { domain: [0, 1], padding: MARK_ROOM, nice: false }, title: 'Cooperation rate',
        axis: { format: '.1f', tickCount: 10 } },
      color: {
        field: 'framing', type: 'nominal' as const, title: 'Framing',
        scale: { domain: [o.base, o.alt], range: [COLORS.base, COLORS.alt] },
      },
      tooltip: [
        { field: 'model', type: 'nominal' as const, title: 'Model' },
        { field: 'game', type: 'nominal' as const, title: 'Game' },
        { field: 'framing', type: 'nominal' as const, title: 'Framing' },
        { field: 'rate', type: 'quantitative' as const, title: 'Rate', format: F3 },
        { field: 'count', type: 'quantitative' as const, title: 'Cooperations' },
        { field: 'n', type: 'quantitative' as const, title: 'n' },
      ],
    },
  };
}

function gameAxis(o: DumbbellOptions) {
  return { field: 'game', type: 'nominal' as const, sort: [...o.games], title: null, axis: { labelPadding: 6 } };
}

/**
 * Same Game, Different Story Table 2 as a dumbbell chart: per model (one panel each) and game, a dot for the base
 * and the alternative framing's cooperation rate joined by a line, so the length of the line is
 * the table's "Difference" column.
 */
export function table2Dumbbell(points: readonly RatePoint[], o: DumbbellOptions): Figure {
  const y = gameAxis(o);
  return defineFigure(
    'table2-dumbbell',
    'Table 2: cooperation rate by framing',
    (`Cooperation rate of each model in each game under the ${o.base} and the ${o.alt} framing (cooperations divided by n). The line joins the two ` +
      `framings; its length is the action shift before attenuation.`),
    {
      title: { text: 'Table 2: cooperation rate by framing', subtitle: `${o.base} vs ${o.alt}, per model and game` },
      data: { values: points.map((p) => ({ ...p })) },
      facet: modelRowFacet(o.models),
      spacing: 14,
      spec: {
        width: PLOT_WIDTH,
        height: { step: 24 },
        layer: [
          {
            mark: { type: 'rule', color: '#9a9a9a', strokeWidth: 2.5 },
            encoding: {
              y,
              x: { aggregate: 'min', field: 'rate', type: 'quantitative' },
              x2: { aggregate: 'max', field: 'rate' },
            },
          },
          // The base framing is drawn large, the alternative small and on top, so equal rates
          // show as a dot inside a ring instead of one hiding the other.
          point(o.base, 200, o),
          point(o.alt, 70, o),
        ],
      },
    },
  );
}
