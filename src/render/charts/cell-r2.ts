import { BUILTIN_COLUMNS } from '../../stats/table3.js';
import { COLORS, defineFigure, F3, MARK_ROOM, PLOT_WIDTH, type Figure, modelRowFacet } from '../figure.js';

/** A cell's raw robustness as the legend names it. */
const R2 = BUILTIN_COLUMNS.robustness.names.cell;

/** R2 of one model × game, raw or after the conservative transform, with its interval. */
export interface CellR2Row {
  readonly model: string;
  readonly game: string;
  /** e.g. "raw" or "conservative (a = 0.7)". */
  readonly version: string;
  readonly estimate: number;
  readonly lo: number;
  readonly hi: number;
}

export interface CellR2Options {
  readonly models: readonly string[];
  readonly games: readonly string[];
  /** Legend order: raw first, then conservative. */
  readonly versions: readonly string[];
  /** How the intervals were made, e.g. "95 % percentile-bootstrap intervals, B = 2000" (`intervalMethodName`). */
  readonly intervals: string;
}

/**
 * Per-cell two-framing robustness R2 = 1 − JSD/ln 2 (Same Game, Different Story §3.3), raw and conservative
 * (R_c = 1 − a·(1 − R2), §4.2), per model panel and game, each with its 95 % interval (the method as `o.intervals` names it).
 */
export function cellR2Figure(rows: readonly CellR2Row[], o: CellR2Options): Figure {
  const y = { field: 'game', type: 'nominal', sort: [...o.games], title: null, axis: { labelPadding: 6 } } as const;
  const yOffset = { field: 'version', type: 'nominal', sort: [...o.versions], scale: { paddingInner: 0.1 } } as const;
  return defineFigure(
    'cell-r2',
    'Per-cell robustness R2, raw and conservative',
    (`Two-framing robustness R2 = 1 − JSD/ln 2 of every model × game, before (raw) and after the conservative transform, with ${o.intervals}. Values near 1 ` +
      `mean the two framings give the same cooperation rate.`),
    {
      title: { text: 'Per-cell robustness R2 (raw and conservative)', subtitle: `R2 = 1 − JSD / ln 2 per model and game, ${o.intervals}` },
      data: { values: rows.map((r) => ({ ...r })) },
      facet: modelRowFacet(o.models),
      spacing: 14,
      spec: {
        width: PLOT_WIDTH,
        height: { step: 26, for: 'position' },
        layer: [
          {
            mark: { type: 'rule', strokeWidth: 2 },
            encoding: {
              y, yOffset,
              x: { field: 'lo', type: 'quantitative' },
              x2: { field: 'hi' },
              color: { field: 'version', type: 'nominal' },
            },
          },
          {
            mark: { type: 'point', filled: true, size: 70, opacity: 1 },
            encoding: {
              y, yOffset,
              x: { field: 'estimate', type: 'quantitative', scale: { domain: [0, 1], padding: MARK_ROOM, nice: false }, title: 'R2 = 1 − JSD / ln 2',
                axis: { format: '.1f', tickCount: 10 } },
              color: {
                field: 'version', type: 'nominal', title: R2,
                scale: { domain: [...o.versions], range: [COLORS.neutral, COLORS.base] },
              },
              tooltip: [
                { field: 'model', type: 'nominal', title: 'Model' },
                { field: 'game', type: 'nominal', title: 'Game' },
                { field: 'version', type: 'nominal', title: R2 },
                { field: 'estimate', type: 'quantitative', title: 'Estimate', format: F3 },
                { field: 'lo', type: 'quantitative', title: '2.5 %', format: F3 },
                { field: 'hi', type: 'quantitative', title: '97.5 %', format: F3 },
              ],
            },
          },
        ],
      },
    },
  );
}
