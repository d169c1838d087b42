import type { RepeatedDecision } from '../../core/decisions.js';
import type { DisplayNames } from '../../core/display-names.js';
import { stat } from '../../core/names.js';
import type { Estimand, StatInfo } from '../../stats/bootstrap.js';
import type { GroupBootstrapResult } from '../../stats/group-bootstrap.js';
import { FEW_CLUSTERS, MIN_CLUSTERS } from '../../stats/cluster-intervals.js';
import { progressOf, type Logger } from '../../core/logger.js';
import { CELL_FACTORS, columnOf, PREVIOUS, repeatedCells, type RepeatedCell } from './layout.js';
import { bootstrapStatistics, robustStatistics, withoutInterval, type RepeatedInterval, type RepeatedStatistics } from './intervals.js';
import { intervalMethodName } from '../../core/interval-name.js';
import { repeatedMsg } from './messages.js';

export interface RepeatedSettings {
  readonly seed: number;
  readonly reps: number;
  /** Further decision factors kept in the cells (`analyze --factor persona`), after the opponent. */
  readonly factors?: readonly string[];
  /** How intervals are made; cluster-robust when absent. */
  readonly interval?: RepeatedInterval;
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
  /** Every statistic with its interval; lo and hi are NaN for a statistic whose decisions come from fewer than MIN_MATCHES matches. */
  readonly stats: RepeatedStatistics;
  /** The cluster bootstrap, with `interval: 'cluster-bootstrap'`. */
  readonly boot?: GroupBootstrapResult;
  /**
   * Statistics without an interval (fewer than MIN_MATCHES matches), cells with fewer than MIN_MATCHES matches, and cells with few (MIN_MATCHES … FEW_MATCHES −
   * 1).
   */
  readonly thin: { readonly statistics: number; readonly cells: number; readonly few: number };
}

/** Matches a statistic's decisions must come from for an interval: with two, G − 1 = 1 degree of freedom leaves no usable interval. */
export const MIN_MATCHES = MIN_CLUSTERS;
/** Cells with fewer matches than this are flagged: their intervals rest on G − 1 < 9 degrees of freedom. */
export const FEW_MATCHES = FEW_CLUSTERS;

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
 * The repeated analysis of a set of decisions: cells, their match columns and an interval for
 * every statistic with the match as the cluster — cluster-robust by default, or one cluster
 * bootstrap (each cell's matches redrawn from the (seed, cell) stream) with `interval:
 * 'cluster-bootstrap'`.
 */
export function analyzeRepeatedPlay(decisions: readonly RepeatedDecision[], settings: RepeatedSettings, logger?: Logger): RepeatedAnalysis {
  return analyzeRepeatedCells(repeatedCells(decisions, settings.factors), settings, logger);
}

/** The repeated analysis of cells already built (from decisions, or from per-match aggregates: aggregate-cells.ts). */
export function analyzeRepeatedCells(cells: readonly RepeatedCell[], settings: RepeatedSettings, logger?: Logger): RepeatedAnalysis {
  const { estimand, offsets, drops } = repeatedEstimand(cells);
  const slots = { offsets, drops };
  const { stats, boot } = settings.interval === 'cluster-bootstrap'
    ? bootstrapStatistics(cells, estimand, slots, { seed: settings.seed, reps: settings.reps, onProgress: progressOf(logger, 'bootstrap') })
    : { stats: robustStatistics(cells, estimand, slots), boot: undefined };
  const few = cells.filter((c) => c.matches.length >= MIN_MATCHES && c.matches.length < FEW_MATCHES).length;
  return {
    cells, offsets, drops, settings, stats, ...(boot ? { boot } : {}),
    thin: { statistics: withoutInterval(stats), cells: cells.filter((c) => c.matches.length < MIN_MATCHES).length, few },
  };
}

/** How the intervals were made, in a few words (figure subtitles, LaTeX captions, the report's per-model text): the method the analysis used. */
export function intervalLabel(a: RepeatedAnalysis): string {
  return a.settings.interval === 'cluster-bootstrap'
    ? (`95 % ${intervalMethodName({ method: 'percentile', clustered: true })} intervals (match as cluster), B = ${a.settings.reps} replicates, ` +
      `seed ${a.settings.seed}`)
    : `95 % ${intervalMethodName({ method: 'cluster-robust' })} intervals (match as cluster)`;
}

/** The note of the statistics left without an interval (report, repeated.json, the terminal's warning); undefined when every statistic has one. */
export function thinNote(a: RepeatedAnalysis): string | undefined {
  return a.thin.statistics === 0 ? undefined : repeatedMsg.thinIntervals(a.thin.statistics, a.thin.cells, a.cells.length, MIN_MATCHES);
}

/** The note of the cells with few matches (MIN_MATCHES … FEW_MATCHES − 1), whose intervals rest on few degrees of freedom; undefined when none. */
export function fewNote(a: RepeatedAnalysis): string | undefined {
  return a.thin.few === 0 ? undefined : repeatedMsg.fewMatches(a.thin.few, a.cells.length, FEW_MATCHES);
}

/** The flag of one statistic's interval: "2 matches: no interval", "few matches: interval from G − 1 = 4 degrees of freedom", or "". */
export function intervalFlag(a: RepeatedAnalysis, index: number): string {
  const g = a.stats.matches[index];
  if (!Number.isFinite(a.stats.point[index])) return '';
  if (g < MIN_MATCHES) return repeatedMsg.noIntervalFlag(g, MIN_MATCHES);
  return g < FEW_MATCHES ? repeatedMsg.fewMatchesFlag(g, a.stats.df[index]) : '';
}
