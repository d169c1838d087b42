/**
 * Logs past memory: a log format compiled to SQL and run by DuckDB over CSV, JSON-lines or
 * Parquet files (and globs of them), ending in per-match aggregates (core/aggregates.ts) rather
 * than decisions; and an aggregates table written elsewhere (`samegame sql`'s query run on a
 * warehouse), read back as the same aggregates. Rows the format refuses are counted in SQL and
 * handed to the row reader (sources/logs/), which names file, line and field as it always has.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { AGGREGATE_KEY_COLUMNS, AGGREGATE_VALUE_COLUMNS, type MatchAggregates } from '../../core/aggregates.js';
import type { RepeatedAggregates } from '../../core/aggregate-decisions.js';
import { UserError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { levelFault } from '../../core/names-rule.js';
import { SELF_OPPONENT } from '../../core/decisions.js';
import { displayNames } from '../../core/display-names.js';
import { readLogDecisions, resolveLogFormat, type LogFormat, type ShortMatches } from '../logs/index.js';
import { factorNames, ident, lit, unsupported } from './compile.js';
import { queryRows, STREAM_MEMORY_LIMIT, streamMatches, withEngine } from './engine.js';
import { aggregatesFileSql, matchChecksSql, matchRowsSql, shortMatchesSql } from './wide.js';
import { makeMatchTable } from './passes.js';
import { engineMsg } from './messages.js';
import { firstBadRow } from './bad-rows.js';

export { aggregationSql, lit, unsupported } from './compile.js';
export { withEngine } from './engine.js';

export interface EngineReadOptions {
  /** The files as the user named them (default: as given); a glob is a file to the engine. */
  readonly displayPaths?: readonly string[];
  readonly models?: readonly string[];
  readonly shortMatches?: ShortMatches;
  readonly logger?: Logger;
  /** The decisions one pass over the matches holds (default PASS_DECISIONS, passes.ts). */
  readonly passDecisions?: number;
}

/** SHA-256 of one file, or of the lines "sha256  name" of several (as the row reader hashes them); a glob is hashed as its text. */
async function filesHash(paths: readonly string[], names: readonly string[]): Promise<string> {
  const one = async (p: string) => {
    if (/[*?[]/.test(p)) return createHash('sha256').update(p).digest('hex');
    const h = createHash('sha256');
    for await (const chunk of createReadStream(p)) h.update(chunk as Buffer);
    return h.digest('hex');
  };
  const hashes: string[] = [];
  for (const p of paths) hashes.push(await one(p));
  return hashes.length === 1 ? hashes[0] : createHash('sha256').update(hashes.map((h, i) => `${h}  ${names[i]}\n`).join('')).digest('hex');
}

const isCsv = (p: string) => !['.parquet', '.jsonl', '.ndjson'].includes(extname(p).toLowerCase());

/** The per-match table of a reading (wide.ts), made once: the checks, names, notes and aggregates read it. */
const MATCHES = 'sg_matches';

/** The reader's rules in SQL: any row refused is handed to the row reader (CSV), which throws naming it; else one line naming the rules. */
async function checkRows(c: DuckDBConnection, files: readonly string[], names: readonly string[], f: LogFormat, opts: EngineReadOptions,
  failed?: string): Promise<void> {
  let broken: string[];
  if (failed !== undefined) broken = [failed.split('\n')[0]];
  else try {
    const [rules] = await queryRows(c, matchChecksSql(MATCHES, f));
    broken = Object.entries(rules).filter(([, n]) => Number(n) > 0).map(([rule]) => rule.replace(/_/g, ' '));
  } catch (e) {
    broken = [(e as Error).message.split('\n')[0]];
  }
  if (broken.length === 0) return;
  const rowReader = files.every((p) => isCsv(p) && !/[*?[]/.test(p));
  if (rowReader) readLogDecisions(files, f, { displayPaths: names, models: opts.models, shortMatches: opts.shortMatches });
  const named = failed === undefined ? await firstBadRow(c, files, names, f) : undefined;
  throw new UserError(named ?? engineMsg.badRows(names.join(', '), broken));
}

/** Every model, opponent, game, framing and factor level a name (the rule of core/names-rule.ts); the models asked for present. */
async function checkNames(c: DuckDBConnection, names: readonly string[], f: LogFormat, opts: EngineReadOptions): Promise<void> {
  const levels: Array<[string, string]> = [['model', 'model'], ['opponent', 'opponent'], ['game', 'game'], ['framing', 'framing'],
    ...factorNames(f).map((n): [string, string] => ['factor', n])];
  const rows = await queryRows(c, levels.map(([level, column]) =>
    `SELECT DISTINCT ${lit(level)} AS level, ${ident(column)} AS v FROM ${MATCHES}`).join('\nUNION\n'));
  for (const row of rows) {
    const [level, v] = [String(row.level), String(row.v)];
    const fault = levelFault(level, v) ?? ((level === 'model' || level === 'opponent') && v === SELF_OPPONENT ? 'self names self-play' : undefined);
    if (fault !== undefined) throw new UserError(engineMsg.badName(names.join(', '), level, v, fault));
  }
  if (!opts.models?.length) return;
  const present = [...new Set(rows.filter((r) => r.level === 'model').map((r) => String(r.v)))].sort();
  const missing = opts.models.filter((m) => !present.includes(m));
  if (missing.length) throw new UserError(engineMsg.modelsNotInLog(missing, present));
}

/** The notes of the reading: the format's, the rows of skipped games, the short matches (at most 5 named). */
async function readingNotes(c: DuckDBConnection, f: LogFormat, short: ShortMatches): Promise<string[]> {
  const notes = [...(f.notes ?? [])];
  const rows = await queryRows(c, shortMatchesSql(MATCHES));
  rows.slice(0, 5).forEach((r) => notes.push(engineMsg.shortMatch(String(r.sg_file), String(r.match), Number(r.last), Number(r.want), short === 'keep')));
  if (rows.length > 5) notes.push(engineMsg.moreShortMatches(rows.length - 5, short === 'keep'));
  return notes;
}

/**
 * A log read by the query engine into per-match aggregates, or undefined when the engine does not compile its format (the caller
 * reads it in memory). `files` are passed to DuckDB as given (relative to the working directory, globs allowed).
 */
export async function readLogAggregates(files: readonly string[], format: string | LogFormat, opts: EngineReadOptions = {}):
  Promise<RepeatedAggregates | undefined> {
  const f = typeof format === 'string' ? resolveLogFormat(format) : format;
  if (unsupported(f) !== undefined) return undefined;
  const names = files.map((p, i) => opts.displayPaths?.[i] ?? p);
  const short = opts.shortMatches ?? f.short_matches ?? 'drop';
  const { aggregates, notes } = await withEngine(names.join(', '), async (c) => {
    // one scan of the files, then passes over the matches, to a table of one row per cell and match, read by the checks, names, notes and aggregates
    try {
      await makeMatchTable(c, MATCHES, files, f, names, opts.logger, opts.passDecisions);
    } catch (e) {
      await checkRows(c, files, names, f, opts, (e as Error).message);
    }
    await checkRows(c, files, names, f, opts);
    await checkNames(c, names, f, opts);
    const notes = await readingNotes(c, f, short);
    const sql = matchRowsSql(MATCHES, f, { shortMatches: short, models: opts.models });
    await c.run(STREAM_MEMORY_LIMIT);
    const aggregates = await streamMatches(c, sql, factorNames(f), opts.logger, (row, column, value) => {
      throw new UserError(engineMsg.aggregatesValue(names.join(', '), row, column, value));
    }, (key, match) => Promise.reject(new UserError(engineMsg.matchTooLarge(names.join(', '), key, match))));
    return { aggregates, notes };
  });
  return {
    path: names.join(', '), sha256: await filesHash(files, names), kind: f.kind ?? `${f.name} log`, synthetic: false, decisions: [],
    decisionCount: aggregates.decisions, notes, aggregates,
    ...(f.names ? { names: displayNames(Object.entries(f.names)) } : {}), ...(f.scripted ? { scripted: f.scripted } : {}),
  };
}

/** The aggregates table's columns besides the factors, in order. */
export const AGGREGATE_COLUMNS = [...AGGREGATE_KEY_COLUMNS, ...AGGREGATE_VALUE_COLUMNS] as const;

/** An aggregates table (CSV or Parquet, as `samegame sql`'s query writes it): every column but the fixed ones a factor, in sorted order. */
export async function readAggregatesFile(path: string, display = path, logger?: Logger): Promise<MatchAggregates> {
  const reader = extname(path).toLowerCase() === '.parquet' ? `read_parquet(${lit(path)})`
    : `read_csv(${lit(path)}, header = true, all_varchar = true, quote = '"', escape = '"')`;
  return withEngine(display, async (c) => {
    const cols = (await queryRows(c, `DESCRIBE SELECT * FROM ${reader}`)).map((r) => String(r.column_name));
    const missing = AGGREGATE_COLUMNS.filter((n) => !cols.includes(n));
    if (missing.length) throw new UserError(engineMsg.aggregatesColumns(display, missing));
    const factors = cols.filter((n) => !(AGGREGATE_COLUMNS as readonly string[]).includes(n)).sort();
    const refuse = (row: number, column: string, value: string): never => { throw new UserError(engineMsg.aggregatesValue(display, row, column, value)); };
    const sql = aggregatesFileSql(reader, [...AGGREGATE_KEY_COLUMNS, ...factors]);
    const inFileOrder = () => c.run('SET preserve_insertion_order = true'); // rows numbered in file order
    const [{ n }] = await queryRows(c, sql.badCount);
    if (Number(n) > 0) {
      await inFileOrder();
      const [bad] = await queryRows(c, sql.firstBad);
      refuse(Number(bad.sg_row), String(bad.sg_column), String(bad.sg_value));
    }
    return streamMatches(c, sql.rows, factors, logger, refuse, async (key, match) => {
      await inFileOrder();
      const [first] = await queryRows(c, sql.firstRow(key, match));
      throw new UserError(engineMsg.aggregatesTooLarge(display, Number(first.sg_row), match));
    });
  });
}

/** The SHA-256 of a file, streamed. */
export const fileSha256 = (path: string): Promise<string> => filesHash([path], [path]);

/** The log format an aggregates table was made through, when one is named (its display names, scripted players and kind). */
export const aggregatesFormat = (name: string | undefined): LogFormat | undefined => (name === undefined ? undefined : resolveLogFormat(name));
