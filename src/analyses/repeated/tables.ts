import { opponentLabel } from '../../core/decisions.js';
import { fixed } from '../../core/format.js';
import { toCsv } from '../../render/csv.js';
import { withNameColumns, type DisplayNames } from '../../core/display-names.js';
import { intervalFlag, type RepeatedAnalysis } from './analysis.js';
import { columnOf, columnSize, PREVIOUS, type CellKey, type Previous, type RepeatedCell } from './layout.js';

interface Estimate {
  readonly lo: number;
  readonly hi: number;
  /** Degrees of freedom of the interval (NaN: no interval). */
  readonly df: number;
  /** Levels of the chosen further factors (columns after `opponent`); {} when none were chosen. */
  readonly factors: Readonly<Record<string, string>>;
}
export interface CellRow extends CellKey, Estimate {
  readonly matches: number; readonly decisions: number; readonly cooperation: number;
  /** "few matches: …" or "2 matches: no interval …; match values …"; "" otherwise. */
  readonly note: string;
  /** Cooperation of each match (over all rounds), in first-appearance order. */
  readonly matchValues: readonly number[];
}
export interface RoundRow extends CellKey, Estimate { readonly round: number; readonly n: number; readonly cooperation: number }
export interface ReactionRow extends CellKey, Estimate { readonly previous: Previous; readonly n: number; readonly p_cooperate: number }
export interface EndGameRow extends CellKey, Estimate {
  readonly last_round: number; readonly n_last: number; readonly cooperation_last: number;
  readonly n_before: number; readonly cooperation_before: number; readonly drop: number;
}

export const CELL_COLUMNS = ['model', 'game', 'framing', 'opponent', 'matches', 'decisions', 'cooperation', 'lo', 'hi', 'df', 'note'] as const;
export const ROUND_COLUMNS = ['model', 'game', 'framing', 'opponent', 'round', 'n', 'cooperation', 'lo', 'hi', 'df'] as const;
export const REACTION_COLUMNS = ['model', 'game', 'framing', 'opponent', 'previous', 'n', 'p_cooperate', 'lo', 'hi', 'df'] as const;
export const END_GAME_COLUMNS = ['model', 'game', 'framing', 'opponent', 'last_round', 'n_last', 'cooperation_last', 'n_before', 'cooperation_before', 'drop',
  'lo', 'hi', 'df'] as const;

const keyOf = (c: RepeatedCell): CellKey & { factors: Readonly<Record<string, string>> } => ({ model: c.key.model, game: c.key.game, framing: c.key.framing,
  opponent: opponentLabel(c.key), factors: c.factors });
// self-play is `self` in every table, as in the two-framing tables and the figures (docs/methods.md §21)

function statOf(a: RepeatedAnalysis, index: number): { point: number; lo: number; hi: number; df: number } {
  return { point: a.stats.point[index], lo: a.stats.lo[index], hi: a.stats.hi[index], df: a.stats.lo[index] === a.stats.lo[index] ? a.stats.df[index] : NaN };
}

/** Per cell: matches, valid decisions, cooperation over all rounds with its interval. */
export function cellRows(a: RepeatedAnalysis): CellRow[] {
  return a.cells.map((c, i) => {
    const s = statOf(a, a.offsets[i] + columnOf.all);
    const sizes = c.columns.sizes[columnOf.all], sums = c.columns.sums[columnOf.all];
    const matchValues = Array.from(sizes, (n, j) => sums[j] / n).filter((x) => Number.isFinite(x));
    const flag = intervalFlag(a, a.offsets[i] + columnOf.all);
    const note = Number.isFinite(s.lo) || !flag ? flag : `${flag}; match values ${matchValues.map((x) => fixed(x)).join(' ')}`;
    return { ...keyOf(c), matches: c.matches.length, decisions: columnSize(c, columnOf.all), cooperation: s.point, lo: s.lo, hi: s.hi, df: s.df, note,
      matchValues };
  });
}

/** Per cell and round with valid decisions: cooperation in that round. */
export function roundRows(a: RepeatedAnalysis): RoundRow[] {
  return a.cells.flatMap((c, i) => Array.from({ length: c.horizon }, (_, t) => t + 1).flatMap((round) => {
    const n = columnSize(c, columnOf.round(round));
    if (n === 0) return [];
    const s = statOf(a, a.offsets[i] + columnOf.round(round));
    return [{ ...keyOf(c), round, n, cooperation: s.point, lo: s.lo, hi: s.hi, df: s.df }];
  }));
}

/** Per cell and previous round (CC, CD, DC, DD; rounds from 2 on): P(C); empty where no decision followed that round. */
export function reactionRows(a: RepeatedAnalysis): ReactionRow[] {
  return a.cells.flatMap((c, i) => PREVIOUS.map((previous) => {
    const col = columnOf.previous(c.horizon, previous);
    const s = statOf(a, a.offsets[i] + col);
    return { ...keyOf(c), previous, n: columnSize(c, col), p_cooperate: s.point, lo: s.lo, hi: s.hi, df: s.df };
  }));
}

/** Per cell: cooperation in the last round, in the rounds before it, and the drop (last − before) with its interval. */
export function endGameRows(a: RepeatedAnalysis): EndGameRow[] {
  return a.cells.map((c, i) => {
    const last = a.offsets[i] + columnOf.round(c.horizon), before = a.offsets[i] + columnOf.beforeLast(c.horizon);
    const d = statOf(a, a.drops[i]);
    return {
      ...keyOf(c), last_round: c.horizon,
      n_last: columnSize(c, columnOf.round(c.horizon)), cooperation_last: a.stats.point[last],
      n_before: columnSize(c, columnOf.beforeLast(c.horizon)), cooperation_before: a.stats.point[before],
      drop: d.point, lo: d.lo, hi: d.hi, df: d.df,
    };
  });
}

/** The key columns every table starts with; the chosen factors follow them. */
const KEY_COLUMNS = 4;

/** A table's columns with the chosen factors after `opponent`. */
export function withFactors(columns: readonly string[], factors: readonly string[]): string[] {
  return [...columns.slice(0, KEY_COLUMNS), ...factors, ...columns.slice(KEY_COLUMNS)];
}

/** A table's CSV: the ids, and with display names a `<column>_name` column (last) per key column with a named level. */
function rowsCsv<T extends Estimate>(columns: readonly (keyof T & string)[], factors: readonly string[], rows: readonly T[], names?: DisplayNames): string {
  const value = (r: T, c: keyof T & string) => r[c] as unknown as string | number;
  const keys = columns.slice(0, KEY_COLUMNS);
  const t = withNameColumns(names, withFactors(columns, factors), rows.map((r) => [
    ...keys.map((c) => value(r, c)), ...factors.map((f) => r.factors[f]), ...columns.slice(KEY_COLUMNS).map((c) => value(r, c))]), keys);
  return toCsv(t.header, t.rows);
}

const factorsOf = (a: RepeatedAnalysis) => a.settings.factors ?? [];
export const cellsCsv = (a: RepeatedAnalysis) => rowsCsv<CellRow>([...CELL_COLUMNS], factorsOf(a), cellRows(a), a.settings.names);
export const roundsCsv = (a: RepeatedAnalysis) => rowsCsv<RoundRow>([...ROUND_COLUMNS], factorsOf(a), roundRows(a), a.settings.names);
export const reactionsCsv = (a: RepeatedAnalysis) => rowsCsv<ReactionRow>([...REACTION_COLUMNS], factorsOf(a), reactionRows(a), a.settings.names);
export const endGameCsv = (a: RepeatedAnalysis) => rowsCsv<EndGameRow>([...END_GAME_COLUMNS], factorsOf(a), endGameRows(a), a.settings.names);
