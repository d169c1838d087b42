import type { RepeatedDecision } from '../../core/decisions.js';
import { stat } from '../../core/names.js';
import type { Estimand, StatInfo } from '../../stats/bootstrap.js';
import { groupBootstrap, type GroupBootstrapResult } from '../../stats/group-bootstrap.js';
import { progressOf, type Logger } from '../../core/logger.js';
import { CELL_FACTORS, cellId, columnOf, PREVIOUS, repeatedCells, type RepeatedCell } from './layout.js';

export interface RepeatedSettings {
  readonly seed: number;
  readonly reps: number;
  /** Further decision factors kept in the cells (`analyze --factor persona`), after the opponent. */
  readonly factors?: readonly string[];
}

export interface RepeatedAnalysis {
  readonly cells: readonly RepeatedCell[];
  /** Index of each cell's first column among the rates (and statistics). */
  readonly offsets: readonly number[];
  /** Index of each cell's end-game drop among the statistics. */
  readonly drops: readonly number[];
  readonly settings: RepeatedSettings;
  readonly boot: GroupBootstrapResult;
}

const RATE: StatInfo = { kind: 'other', bounds: [0, 1] };
const DIFFERENCE: StatInfo = { kind: 'other', bounds: [-1, 1] };

const partsOf = (c: RepeatedCell) => [...CELL_FACTORS.map((f) => c.key[f]), ...Object.values(c.factors)];

/** The names of a cell's columns, parallel to its columns. */
function columnNames(c: RepeatedCell): string[] {
  const p = partsOf(c);
  return [
    stat('cooperation', ...p),
    ...Array.from({ length: c.horizon }, (_, i) => stat('round', ...p, String(i + 1))),
    ...PREVIOUS.map((prev) => stat('p_cooperate', ...p, prev)),
    stat('before_last', ...p),
  ];
}

/**
 * Every statistic of the repeated analysis, on one bootstrap: each column's rate (cooperation
 * over all rounds, per round, after each previous round, before the last round), then per cell the
 * end-game drop, cooperation in the last round minus cooperation in the rounds before it — a
 * difference of two rates of the same matches, so its replicates take both from the same draw.
 */
export function repeatedEstimand(cells: readonly RepeatedCell[]): { estimand: Estimand; offsets: number[]; drops: number[] } {
  const names: string[] = [];
  const info: StatInfo[] = [];
  const offsets: number[] = [];
  for (const c of cells) {
    offsets.push(names.length);
    for (const n of columnNames(c)) { names.push(n); info.push(RATE); }
  }
  const k = names.length;
  const last = cells.map((c, i) => offsets[i] + columnOf.round(c.horizon));
  const before = cells.map((c, i) => offsets[i] + columnOf.beforeLast(c.horizon));
  const drops = cells.map((c, i) => { names.push(stat('end_drop', ...partsOf(c))); info.push(DIFFERENCE); return k + i; });
  return {
    offsets, drops,
    estimand: {
      names, info,
      evaluate(rates, out) {
        for (let i = 0; i < k; i++) out[i] = rates[i];
        for (let i = 0; i < last.length; i++) out[k + i] = rates[last[i]] - rates[before[i]];
      },
    },
  };
}

/**
 * The repeated analysis of a set of decisions: cells, their match columns and one cluster
 * bootstrap with the match as the cluster of every statistic (each cell's matches redrawn from the
 * (seed, cell) stream).
 */
export function analyzeRepeatedPlay(decisions: readonly RepeatedDecision[], settings: RepeatedSettings, logger?: Logger): RepeatedAnalysis {
  const cells = repeatedCells(decisions, settings.factors);
  const { estimand, offsets, drops } = repeatedEstimand(cells);
  const boot = groupBootstrap(cells.map((c) => ({ id: cellId(c), columns: c.columns })), estimand,
    { seed: settings.seed, reps: settings.reps, onProgress: progressOf(logger, 'bootstrap') });
  return { cells, offsets, drops, settings, boot };
}
