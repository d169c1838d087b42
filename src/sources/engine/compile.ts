/**
 * A log format compiled to SQL (DuckDB dialect; ANSI apart from the file readers and `regexp_*`):
 * the rows of the log become one row per decision (seat, round) with its cell, match, round and
 * move, then the aggregates table `samegame sql` prints (docs/reference/aggregates.md) — one row per
 * cell, match, round and previous state with the decisions, the valid ones and the cooperations.
 * `rowRules` are the reader's rules on one decision; wide.ts counts the rows each refuses while it
 * reduces the decisions to one row per cell and match, the form the engine reads itself.
 */
import { extname } from 'node:path';
import type { LogFormat, SeatSpec, ValueSpec } from '../logs/schema.js';
import { AGGREGATE_KEY_COLUMNS, AGGREGATE_VALUE_COLUMNS } from '../../core/aggregates.js';
import { engineMsg } from './messages.js';

/** A text literal. */
export const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;
/** A quoted identifier. */
export const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;
/** The highest round a log may hold (a larger one is refused at its row: bad_round). */
export const MAX_ROUND = 1_000_000;

/** What the engine cannot compile, or undefined when the whole format compiles. */
export function unsupported(f: LogFormat): string | undefined {
  if (f.shape === 'match') return 'shape match (list columns)';
  if (typeof f.match !== 'object') return `match: ${f.match}`;
  if (!('labels' in f.actions)) return 'actions decoded from payoffs';
  if (f.played_rounds !== undefined || f.max_rounds !== undefined) return 'played_rounds/max_rounds';
  const specs: ValueSpec[] = [f.game, f.framing, f.match, ...(f.round ? [f.round] : []), ...Object.values(f.factors ?? {}),
    ...(f.actions.by ? [f.actions.by] : []), ...f.seats.flatMap((s) => [s.model, s.opponent, ...(s.seat ? [s.seat] : []), ...Object.values(s.factors ?? {})])];
  if (specs.some((s) => 'template' in s && s.values)) return 'a template with values';
  for (const s of f.seats) if (s.opponent_action !== undefined || s.total !== undefined) return 'opponent_action/total columns';
  const names = factorNames(f);
  const clash = names.find((n) => (AGGREGATE_KEY_COLUMNS as readonly string[]).includes(n) || (AGGREGATE_VALUE_COLUMNS as readonly string[]).includes(n));
  return clash === undefined ? undefined : `a factor named ${clash}`;
}

/** The format's factor names, sorted: the aggregates' factor columns. */
export function factorNames(f: LogFormat): string[] {
  return [...new Set([...Object.keys(f.factors ?? {}), ...f.seats.flatMap((s) => Object.keys(s.factors ?? {}))])].sort();
}

/** A column's trimmed text ('' when empty). */
const col = (c: string): string => `coalesce(trim(CAST(${ident(c)} AS VARCHAR)), '')`;

/** A value spec as an SQL expression over the file's row (`sg_file` the file as named). */
export function valueSql(spec: ValueSpec): string {
  if ('column' in spec) return col(spec.column);
  if ('constant' in spec) return lit(spec.constant);
  if ('file_stem' in spec) return "regexp_replace(regexp_replace(sg_file, '^.*[/\\\\]', ''), '\\.[^.]*$', '')";
  const parts: string[] = [];
  const re = /\{([^{}]*)\}|([^{}]+)/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(spec.template)) !== null) parts.push(m[1] !== undefined ? col(m[1].trim()) : lit(m[2]));
  return parts.length === 0 ? "''" : `(${parts.join(' || ')})`;
}

/** The reader of the files: CSV (the format's delimiter), JSON lines or Parquet, by extension; every file named in `sg_file` as given. */
export function readerSql(files: readonly string[], f: LogFormat): string {
  const list = `[${files.map(lit).join(', ')}]`;
  const ext = extname(files[0]).toLowerCase();
  if (ext === '.parquet') return `read_parquet(${list}, filename = true, hive_partitioning = false)`;
  if (ext === '.jsonl' || ext === '.ndjson') return `read_json(${list}, format = 'newline_delimited', filename = true)`;
  return `read_csv(${list}, header = true, all_varchar = true, delim = ${lit(f.delimiter ?? ',')}, quote = '"', escape = '"', filename = true)`;
}

/** The file as the user named it (the match ids and messages name it so): the name given for each file, a glob's files as DuckDB lists them. */
function fileSql(files: readonly string[], display: readonly string[]): string {
  const renamed = files.map((p, i) => [p, display[i]] as const).filter(([p, d]) => p !== d);
  return renamed.length === 0 ? 'filename' : `CASE filename ${renamed.map(([p, d]) => `WHEN ${lit(p)} THEN ${lit(d)}`).join(' ')} ELSE filename END`;
}

/** A label's code under the label maps: 1 C, 2 D, 0 invalid, −1 a label outside its map, −2 no map for the key. */
function codeSql(label: string, key: string, f: LogFormat): string {
  if (!('labels' in f.actions)) throw new Error('labels only');
  const maps = Object.entries(f.actions.labels).map(([k, map]) => `WHEN ${lit(k)} THEN CASE ${label} ${Object.entries(map)
    .map(([l, a]) => `WHEN ${lit(l)} THEN ${a === 'C' ? 1 : a === 'D' ? 2 : 0}`).join(' ')} ELSE -1 END`);
  return `CASE ${key} ${maps.join(' ')} ELSE -2 END`;
}

/** One SELECT per seat entry: a decision per row and seat, with its cell, match, round text, seat text, move code and (shape round) the other's. */
function seatSelects(f: LogFormat, numbered: boolean): string[] {
  const key = 'labels' in f.actions && f.actions.by ? valueSql(f.actions.by) : valueSql(f.game);
  const names = factorNames(f);
  return f.seats.map((s, i) => {
    const factors = names.map((n) => `${s.factors?.[n] ? valueSql(s.factors[n]) : f.factors?.[n] ? valueSql(f.factors[n]) : "''"} AS ${ident(n)}`);
    const other = f.shape === 'round' ? f.seats[1 - i] : undefined;
    return [
      `SELECT sg_file, ${valueSql(f.game)} AS game, ${valueSql(f.framing)} AS framing, ${valueSql(s.model)} AS model,`,
      `  ${valueSql(s.opponent)} AS opponent,${factors.map((x) => ` ${x},`).join('')} ${valueSql(f.match as ValueSpec)} AS sg_match,`,
      `  ${valueSql(f.round!)} AS sg_round, ${f.shape === 'round' ? lit(String(i + 1)) : s.seat ? valueSql(s.seat) : "'1'"} AS sg_seat,`,
      `  ${key} AS sg_key, ${col(s.action)} AS sg_label, ${codeSql(col(s.action), key, f)} AS sg_own,`,
      `  ${other ? codeSql(col(other.action), key, f) : 'NULL'} AS sg_other${numbered ? `, ${i} AS sg_entry, sg_n, sg_row` : ''}`,
      `FROM src${skipWhere(f, key)}`,
    ].join('\n');
  });
}

function skipWhere(f: LogFormat, key: string): string {
  const skip = 'labels' in f.actions ? Object.keys(f.actions.skip ?? {}) : [];
  return skip.length === 0 ? '' : ` WHERE ${key} NOT IN (${skip.map(lit).join(', ')})`;
}

/**
 * The WITH chain's first tables: the files' rows (`src`), one row per seat entry (`seats`), its match id and whole round (`typed`);
 * `numbered`: each with its place in the scan (`sg_n`), its row in its file (`sg_row`, from 1) and its seat entry (`sg_entry`) —
 * in file order when the scan is (one thread, insertion order kept: engine.ts's bad-row search).
 */
export function typedSql(files: readonly string[], f: LogFormat, display: readonly string[] = files, numbered = false): string {
  const src = numbered
    ? `SELECT *, sg_n - min(sg_n) OVER (PARTITION BY sg_file) + 1 AS sg_row FROM (SELECT *, ${fileSql(files, display)} AS sg_file,
      row_number() OVER () AS sg_n FROM ${readerSql(files, f)})`
    : `SELECT *, ${fileSql(files, display)} AS sg_file FROM ${readerSql(files, f)}`;
  return [
    `WITH src AS (${src}),`,
    `seats AS (\n${seatSelects(f, numbered).join('\nUNION ALL\n')}\n),`,
    `typed AS (SELECT *, sg_file || '#' || sg_match AS match, TRY_CAST(sg_round AS INTEGER) AS round FROM seats)`,
  ].join('\n');
}

/**
 * The decisions of the rows of `typed` (typedSql's last table): the WITH chain's tables after it, `decisions` last, in one window (one
 * sort): the rows of a match ordered by round and seat, a round's two seats side by side, so the same seat's previous round and the other
 * seat's are among the three rows before. `sg_previous` is the state of the seat's previous round (0 none: round 1, an invalid move,
 * a missing round) on every log the reader's rules accept (at most two seats a round, none twice); `sg_dup` marks a (match, round,
 * seat) met before. The query `samegame sql` prints and the engine's passes (wide.ts) both derive the decisions here.
 */
export function decisionsSql(f: LogFormat): string {
  const back = [1, 2, 3];
  const before = (seat: '=' | '<>', x: string) =>
    `CASE ${back.map((k) => `WHEN sg_r${k} = round - 1 AND sg_s${k} ${seat} sg_seat THEN ${x}${k}`).join(' ')} END`;
  // shape round: the state of the seat's previous round is on its row; shape decision: the two seats' moves of that round
  const previous = f.shape === 'round' ? `coalesce(${before('=', 'sg_t')}, 0)`
    : `CASE WHEN sg_own_before > 0 AND sg_other_before > 0 THEN 1 + 2 * (sg_own_before - 1) + (sg_other_before - 1) ELSE 0 END`;
  const state = 'CASE WHEN sg_own > 0 AND sg_other > 0 THEN 1 + 2 * (sg_own - 1) + (sg_other - 1) ELSE 0 END';
  const lags = back.flatMap((k) => [`lag(round, ${k}) OVER m AS sg_r${k}`, `lag(sg_seat, ${k}) OVER m AS sg_s${k}`,
    `lag(sg_own, ${k}) OVER m AS sg_o${k}`, ...(f.shape === 'round' ? [`lag(${state}, ${k}) OVER m AS sg_t${k}`] : [])]);
  return [
    `lagged AS (SELECT *, ${lags.join(', ')} FROM typed WINDOW m AS (PARTITION BY match ORDER BY round, sg_seat)),`,
    `befores AS (SELECT *, ${before('=', 'sg_o')} AS sg_own_before, ${before('<>', 'sg_o')} AS sg_other_before FROM lagged),`,
    `decisions AS (SELECT *, CASE WHEN sg_own > 0 THEN ${previous} ELSE 0 END AS sg_previous,`,
    '  coalesce(sg_r1 = round AND sg_s1 = sg_seat, false) AS sg_dup FROM befores)',
  ].join('\n');
}

export interface AggregationOptions {
  /** Short matches (shorter than the longest of their game in their file): left out (default) or kept. */
  readonly shortMatches?: 'drop' | 'keep';
  /** Keep only these models' decisions. */
  readonly models?: readonly string[];
  /** The files as the user named them, parallel to the files (default: as given). */
  readonly display?: readonly string[];
}

/**
 * The aggregation query: the aggregates table (docs/reference/aggregates.md), unordered — the decisions of `decisionsSql`, as the
 * engine derives them, grouped by cell, match, round and previous state in one query (the engine groups them per cell and match, in
 * passes over its copy of the decisions: wide.ts).
 */
export function aggregationSql(files: readonly string[], f: LogFormat, opts: AggregationOptions = {}): string {
  const why = unsupported(f);
  if (why !== undefined) throw new Error(engineMsg.notCompiled(f.name, why));
  const keys = ['model', 'game', 'framing', 'opponent', ...factorNames(f).map(ident), 'match', 'round'];
  const kept = opts.shortMatches === 'keep' ? 'SELECT * FROM decisions'
    : 'SELECT * FROM (SELECT *, max(round) OVER (PARTITION BY match) AS sg_last FROM decisions)\n'
      + '  QUALIFY sg_last >= max(sg_last) OVER (PARTITION BY sg_file, game)';
  const models = opts.models?.length ? ` WHERE model IN (${opts.models.map(lit).join(', ')})` : '';
  return [
    `${typedSql(files, f, opts.display)},`,
    `${decisionsSql(f)},`,
    `kept AS (${kept})`,
    `SELECT ${keys.join(', ')},`,
    "  CASE sg_previous WHEN 1 THEN 'CC' WHEN 2 THEN 'CD' WHEN 3 THEN 'DC' WHEN 4 THEN 'DD' ELSE '' END AS previous,",
    '  count(*) AS decisions, sum(CASE WHEN sg_own > 0 THEN 1 ELSE 0 END) AS valid, sum(CASE WHEN sg_own = 1 THEN 1 ELSE 0 END) AS cooperations',
    `FROM kept${models}`,
    `GROUP BY ${keys.join(', ')}, sg_previous`,
  ].join('\n');
}

/** The column a value comes from (a template's first placeholder), else the role it plays: the field a refused row is named by. */
export function fieldOf(spec: ValueSpec | undefined, role: string): string {
  if (spec === undefined) return role;
  if ('column' in spec) return spec.column;
  if ('template' in spec) return /\{([^{}]*)\}/.exec(spec.template)?.[1]?.trim() ?? role;
  return role;
}

/** The values a decision of a seat entry must have (rule missing_field), in order: [its column in typedSql, the log's field it comes from]. */
export function requiredValues(f: LogFormat, seat: SeatSpec): Array<[string, string]> {
  return [['game', fieldOf(f.game, 'game')], ['framing', fieldOf(f.framing, 'framing')], ['model', fieldOf(seat.model, 'model')],
    ['opponent', fieldOf(seat.opponent, 'opponent')], ...factorNames(f).map((n): [string, string] => [n, fieldOf(seat.factors?.[n] ?? f.factors?.[n], n)]),
    ['sg_match', fieldOf(typeof f.match === 'object' ? f.match : undefined, 'match')], ['sg_label', seat.action]];
}

/** The parts of a match's pairing: a match value reused by another pairing, game, framing or factor level takes two values of one. */
export const pairingParts = (f: LogFormat): string[] =>
  ['game', 'framing', 'least(model, opponent)', 'greatest(model, opponent)', ...Object.keys(f.factors ?? {}).sort().map(ident)];

/** The reader's rules on one decision: [rule, the SQL condition of a row it refuses]. */
export function rowRules(f: LogFormat): Array<[string, string]> {
  const empty = requiredValues(f, f.seats[0]).map(([c]) => `${ident(c)} = ''`).join(' OR ');
  return [
    ['missing_field', empty],
    ['bad_round', `NOT regexp_full_match(sg_round, '[0-9]+') OR round IS NULL OR round < 1 OR round > ${MAX_ROUND}`],
    ['bad_seat', "sg_seat NOT IN ('1', '2')"],
    ['bad_label', 'sg_own < 0 OR coalesce(sg_other, 0) < 0'],
  ];
}
