import type { RepeatedDecision } from '../../core/decisions.js';
import type { DisplayNames } from '../../core/display-names.js';
import { stat } from '../../core/names.js';
import type { Estimand, StatInfo } from '../../stats/bootstrap.js';
import { groupBootstrap, type GroupBootstrapResult } from '../../stats/group-bootstrap.js';
import { progressOf, type Logger } from '../../core/logger.js';
import { analyzeMsg } from '../../core/messages/analyze.js';
import { CELL_FACTORS, cellId, columnOf, PREVIOUS, repeatedCells, type RepeatedCell } from './layout.js';

export interface RepeatedSettings {
  readonly seed: number;
  readonly reps: number;
  /** Further decision factors kept in the cells (`analyze --factor persona`), after the opponent. */
  readonly factors?: readonly string[];
  /** Display names of models, games, framings and opponents (figures, report, terminal, LaTeX; CSV adds them beside the ids). */
  readonly names?: DisplayNames;
}

export interface RepeatedAnalysis {
  readonly cells: readonly RepeatedCell[];
  /** Index of each cell's first column among the rates (and statistics). */
  readonly offsets: readonly number[];
  /** Index of each cell's end-game drop among the statistics. */
  readonly drops: readonly number[];
  readonly settings: RepeatedSettings;
  /** The bootstrap; lo and hi are NaN for a statistic whose decisions come from fewer than MIN_MATCHES matches. */
  readonly boot: GroupBootstrapResult;
  /** Statistics without an interval (fewer than MIN_MATCHES matches), and cells with fewer than MIN_MATCHES matches. */
  readonly thin: { readonly statistics: number; readonly cells: number };
}

/** Matches a statistic's decisions must come from for an interval: one match has no spread to redraw (its interval would be a point). */
export const MIN_MATCHES = 2;

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
  const { boot: marked, statistics } = withoutThinIntervals(boot, cells, offsets, drops);
  return { cells, offsets, drops, settings, boot: marked, thin: { statistics, cells: cells.filter((c) => c.matches.length < MIN_MATCHES).length } };
}

/** Matches with at least one decision in column c of a cell. */
function columnMatches(cell: RepeatedCell, c: number): number {
  const v = cell.columns.sizes[c];
  let m = 0;
  for (let j = 0; j < v.length; j++) if (v[j] > 0) m++;
  return m;
}

/** The bootstrap with lo = hi = NaN (no interval) where a statistic's decisions come from fewer than MIN_MATCHES matches. */
function withoutThinIntervals(boot: GroupBootstrapResult, cells: readonly RepeatedCell[], offsets: readonly number[], drops: readonly number[]): { boot: GroupBootstrapResult; statistics: number } {
  const lo = Float64Array.from(boot.lo), hi = Float64Array.from(boot.hi);
  let statistics = 0;
  const drop = (i: number) => { if (Number.isFinite(lo[i]) || Number.isFinite(hi[i])) statistics++; lo[i] = NaN; hi[i] = NaN; };
  cells.forEach((c, i) => {
    const k = c.columns.sizes.length;
    for (let col = 0; col < k; col++) if (columnMatches(c, col) < MIN_MATCHES) drop(offsets[i] + col);
    const last = columnMatches(c, columnOf.round(c.horizon)), before = columnMatches(c, columnOf.beforeLast(c.horizon));
    if (Math.min(last, before) < MIN_MATCHES) drop(drops[i]);
  });
  return { boot: { ...boot, lo, hi }, statistics };
}

/** The note of the statistics left without an interval (report, repeated.json, the terminal's warning); undefined when every statistic has one. */
export function thinNote(a: RepeatedAnalysis): string | undefined {
  return a.thin.statistics === 0 ? undefined : analyzeMsg.thinIntervals(a.thin.statistics, a.thin.cells, a.cells.length, MIN_MATCHES);
}
