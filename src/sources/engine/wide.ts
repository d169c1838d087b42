/**
 * The engine's own reduction: one row per cell and match (model, game, framing, opponent, factor levels, match) rather than one per
 * round and previous state, so what reaches JavaScript grows with the matches. The row's counts are one text of whole numbers
 * (`packed`): the five previous states' valid decisions and cooperations ('' CC CD DC DD), then per round present (in any order) its number,
 * decisions, valid ones and cooperations — the MatchSums of core/aggregates.ts, read by engine.ts. A log's decisions reach it through
 * `matchTableSql`, in passes over the staged decisions (passes.ts), with the counts of the rows each rule of the reader refuses; an
 * aggregates table through `aggregatesFileSql`.
 */
import type { LogFormat } from '../logs/schema.js';
import { AGGREGATE_STATES, MAX_COUNT } from '../../core/aggregates.js';
import { MAX_ROUND, decisionsSql, factorNames, ident, lit, pairingParts, rowRules, typedSql } from './compile.js';

/** The per-round counts' columns: decisions, valid, cooperations, then valid and cooperations after each previous state. */
const STATE_COLUMNS = AGGREGATE_STATES.flatMap((_, s) => [`sg_v${s}`, `sg_c${s}`]);

/** The packed text of a cell–match group of per-round rows (columns round, sg_d, sg_v, sg_c and STATE_COLUMNS). */
const PACKED = `concat_ws(' ', ${STATE_COLUMNS.map((c) => `sum(${c})`).join(', ')}, `
  + "string_agg(concat_ws(' ', round, sg_d, sg_v, sg_c), ' ')) AS packed";

/** The rules the per-match table counts besides the row rules: a (match, seat, round) given twice. */
const DUPLICATE = 'duplicate_decision';

/** The staged decisions' column of its bucket: a hash of the match, so a match's rows are all in one bucket. */
export const BUCKETS = 4096;

/**
 * The log's decisions as typedSql makes them, one row per seat entry, to be staged in a table (passes.ts) with each row's bucket
 * (`sg_bucket`) and the rules of the reader it breaks, one column each.
 */
export function stagedSql(files: readonly string[], f: LogFormat, display: readonly string[]): string {
  return `${typedSql(files, f, display)}
SELECT * EXCLUDE (sg_match, sg_round, sg_key, sg_label), ${rowRules(f).map(([rule, where]) => `coalesce(${where}, false) AS ${rule}`).join(', ')},
  CAST(hash(match) % ${BUCKETS} AS INTEGER) AS sg_bucket
FROM typed`;
}

/**
 * The per-(cell, match) rows of the staged decisions `typed` (a SELECT of stagedSql's rows: one pass takes the matches of some buckets):
 * the key, the file, the highest round of the match in the cell (`sg_top`), the packed counts (a decision each, its round's entry summed
 * in engine.ts), per rule of the reader the rows it refuses, and `sg_gap`, the rows that follow a missing round of their match (its rows
 * ordered by round). One grouping by cell–match, its hash table and `string_agg` states held in memory: a pass holds about
 * PASS_DECISIONS decisions (passes.ts); over 10^6 decisions it took half the time of the window aggregates it replaced (methods §26).
 */
export function matchTableSql(typed: string, f: LogFormat): string {
  const keys = ['model', 'game', 'framing', 'opponent', ...factorNames(f).map(ident), 'match'];
  // the staged table holds each row rule's verdict in a column of its name
  const rules = [...rowRules(f).map(([rule]): [string, string] => [rule, rule]), [DUPLICATE, 'sg_dup'] as [string, string]];
  const states = AGGREGATE_STATES.flatMap((_, s) => [`count(*) FILTER (WHERE sg_own > 0 AND sg_previous = ${s})`,
    `count(*) FILTER (WHERE sg_own = 1 AND sg_previous = ${s})`]);
  // a decision's entry: its round, one decision, valid (own move 1 C or 2 D), cooperation
  const entry = "round || CASE sg_own WHEN 1 THEN ' 1 1 1' WHEN 2 THEN ' 1 1 0' ELSE ' 1 0 0' END";
  const gap = 'coalesce(CASE WHEN sg_r1 IS NULL THEN round <> 1 ELSE round > sg_r1 + 1 END, false)';
  return [
    `WITH typed AS (${typed}),`,
    decisionsSql(f),
    `SELECT sg_file, ${keys.join(', ')}, max(round) AS sg_top,`,
    `  concat_ws(' ', ${states.join(',\n    ')},`,
    `    string_agg(${entry}, ' ')) AS packed,`,
    `  ${rules.map(([rule, where]) => `count(*) FILTER (WHERE ${where}) AS ${rule}`).join(',\n  ')},`,
    `  count(*) FILTER (WHERE ${gap}) AS sg_gap`,
    `FROM decisions GROUP BY sg_file, ${keys.join(', ')}`,
  ].join('\n');
}

/**
 * The rows each rule of the reader refuses, from the per-match table (one row, a column per rule); `round_missing` counts the matches
 * whose rounds (all seats) are not 1…highest.
 */
export function matchChecksSql(table: string, f: LogFormat): string {
  // a match's pairing repeats another's when any part of it takes two values in the match
  const parts = pairingParts(f);
  return [
    `SELECT ${[...rowRules(f).map(([rule]) => rule), DUPLICATE].map((r) => `coalesce(sum(${r}), 0) AS ${r}`).join(', ')},`,
    `  (SELECT count(*) FROM (SELECT 1 FROM ${ident(table)} GROUP BY match
    HAVING ${parts.map((p) => `count(DISTINCT ${p}) > 1`).join(' OR ')})) AS match_repeats,`,
    `  (SELECT count(DISTINCT match) FROM ${ident(table)} WHERE sg_gap > 0) AS round_missing`,
    `FROM ${ident(table)}`,
  ].join('\n');
}

export interface MatchRowsOptions {
  readonly shortMatches?: 'drop' | 'keep';
  readonly models?: readonly string[];
}

/** The per-match table's rows for the aggregates, short matches left out (unless kept), sorted by key and match. */
export function matchRowsSql(table: string, f: LogFormat, opts: MatchRowsOptions = {}): string {
  const keys = ['model', 'game', 'framing', 'opponent', ...factorNames(f).map(ident), 'match'];
  const models = opts.models?.length ? ` WHERE model IN (${opts.models.map(lit).join(', ')})` : '';
  const kept = opts.shortMatches === 'keep' ? `SELECT * FROM ${ident(table)}`
    : `SELECT * FROM (SELECT *, max(sg_top) OVER (PARTITION BY match) AS sg_last FROM ${ident(table)})
  QUALIFY sg_last >= max(sg_last) OVER (PARTITION BY sg_file, game)`;
  return `SELECT ${keys.join(', ')}, packed FROM (${kept})${models} ORDER BY ${keys.join(', ')}`;
}

/** The short matches of the per-match table (shorter than the longest of their game in their file): file, match, its rounds, the longest. */
export const shortMatchesSql = (table: string): string => `WITH m AS (SELECT sg_file, match, game, max(sg_top) AS last FROM ${ident(table)} GROUP BY ALL)
SELECT sg_file, match, last, max(last) OVER (PARTITION BY sg_file, game) AS want FROM m QUALIFY last < want ORDER BY sg_file, match`;

/** The largest count an aggregates table holds in one match (MatchSums are 32-bit). */

/** The SQL of an aggregates table: a cheap count of its bad rows, its first bad row, its per-match rows, a match's first row. */
export interface AggregatesFileSql {
  readonly badCount: string;
  readonly firstBad: string;
  readonly rows: string;
  readonly firstRow: (key: readonly string[], match: string) => string;
}

/**
 * An aggregates table (docs/reference/aggregates.md) read by `reader`, its text columns `keys` (key and factor columns), reduced to the
 * per-match rows: the number of rows with a value no aggregates table holds (no order kept), the first of them (in file order: rows
 * numbered with the insertion order kept), or else its packed rows sorted by key and match.
 */
export function aggregatesFileSql(reader: string, keys: readonly string[]): AggregatesFileSql {
  const text = (c: string) => `coalesce(CAST(${ident(c)} AS VARCHAR), '')`;
  const num = (c: string) => `TRY_CAST(${text(c)} AS DOUBLE)`;
  const columns = `${keys.map((k) => `${text(k)} AS ${ident(k)}`).join(', ')}, ${text('match')} AS match,
  ${text('previous')} AS previous, ${text('round')} AS sg_round_text, ${num('round')} AS round, ${text('decisions')} AS sg_d_text,
  ${num('decisions')} AS sg_d, ${num('valid')} AS sg_v, ${num('cooperations')} AS sg_c FROM ${reader}`;
  const typed = `SELECT ${columns}`;
  const numbered = `SELECT row_number() OVER () AS sg_row, ${columns}`;
  const whole = (c: string) => `(${c} IS NOT NULL AND ${c} = floor(${c}))`;
  const badPrevious = `previous NOT IN (${AGGREGATE_STATES.map(lit).join(', ')})`;
  const badRound = `NOT (${whole('round')} AND round >= 1 AND round <= ${MAX_ROUND})`; // the rounds a log may hold (compile.ts bad_round)
  const badCounts = `NOT (${whole('sg_d')} AND ${whole('sg_v')} AND ${whole('sg_c')} AND ${MAX_COUNT} >= sg_d AND sg_d >= sg_v AND sg_v >= sg_c
    AND sg_c >= 0)`;
  const bad = `${badPrevious} OR ${badRound} OR ${badCounts}`;
  const badCount = `SELECT count(*) AS n FROM (${typed}) WHERE ${bad}`;
  const firstBad = `SELECT sg_row, CASE WHEN ${badPrevious} THEN 'previous' WHEN ${badRound} THEN 'round' ELSE 'decisions' END AS sg_column,
  CASE WHEN ${badPrevious} THEN previous WHEN ${badRound} THEN sg_round_text ELSE sg_d_text END AS sg_value
FROM (${numbered}) WHERE ${bad} ORDER BY sg_row LIMIT 1`;
  const group = [...keys.map(ident), 'match'];
  const states = AGGREGATE_STATES.flatMap((s, i) => ['v', 'c'].map((k) => `coalesce(sum(sg_${k}) FILTER (WHERE previous = ${lit(s)}), 0) AS sg_${k}${i}`));
  const rows = `WITH t AS (SELECT ${group.join(', ')}, CAST(round AS BIGINT) AS round, previous, CAST(sg_d AS BIGINT) AS sg_d,
  CAST(sg_v AS BIGINT) AS sg_v, CAST(sg_c AS BIGINT) AS sg_c FROM (${typed})),
sg_per_round AS (SELECT ${group.join(', ')}, round, sum(sg_d) AS sg_d, sum(sg_v) AS sg_v, sum(sg_c) AS sg_c,
  ${states.join(',\n  ')}
  FROM t GROUP BY ${group.join(', ')}, round)
SELECT ${group.join(', ')}, ${PACKED} FROM sg_per_round GROUP BY ${group.join(', ')} ORDER BY ${group.join(', ')}`;
  const firstRow = (key: readonly string[], match: string) => `SELECT min(sg_row) AS sg_row FROM (${numbered})
WHERE ${[...key, match].map((v, i) => `${group[i]} = ${lit(v)}`).join(' AND ')}`;
  return { badCount, firstBad, rows, firstRow };
}
