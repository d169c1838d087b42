/**
 * The per-match table of a log, made in passes so the engine's memory does not grow with the decisions: the files are scanned once
 * into a staged table of decisions (on disk, in the engine's database file), then the matches are taken some buckets at a time — a pass
 * holds about PASS_DECISIONS decisions — and each pass's per-(cell, match) rows are appended to the table the checks,
 * names, notes and aggregates read (wide.ts). A match's rows are all in one bucket (the bucket is a hash of the match), so every
 * pass sees whole matches and the rows are those of one query over all the decisions — the query run straight from the files when
 * they are small enough (no staging).
 */
import { statSync } from 'node:fs';
import { extname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from '../../core/logger.js';
import type { LogFormat } from '../logs/schema.js';
import { queryRows, withProgress } from './engine.js';
import { engineMsg } from './messages.js';
import { lit } from './compile.js';
import { BUCKETS, matchTableSql, stagedSql } from './wide.js';

/**
 * The decisions one pass holds (about): the window of a match's rows and the grouping by cell–match over 10^6 decisions ran within a
 * memory limit of 120 MB; passes of half that were the faster (docs/methods.md §26).
 */
export const PASS_DECISIONS = 500_000;

/**
 * Files that cannot hold more than this many passes' decisions (4 × 10^6) are read in one query, without staging (the one query over
 * 10^7 decisions also ran within the engine's 384 MB limit, its process at 690 MB: passes keep the memory flat past this).
 */
const ONE_QUERY_PASSES = 8;

/** The staged decisions' table. */
const STAGED = 'sg_staged';

/** The number of passes for `n` staged decisions: each takes BUCKETS / passes buckets, about `per` decisions. */
const passesFor = (n: number, per = PASS_DECISIONS): number => Math.min(BUCKETS, Math.max(1, Math.ceil(n / per)));

/**
 * The bytes a row of a CSV or JSON-lines log takes at least in practice (six fields and their separators), for a bound on its rows: a
 * log of rows shorter still (`1,C` with the match from the file's name) may get one query for up to twice the decisions.
 */
const ROW_BYTES = 8;
/** The files whose size bounds their rows: uncompressed text and Parquet. */
const PLAIN = /\.(csv|tsv|txt|json|jsonl|ndjson|parquet)$/i;

/**
 * At most how many decisions the files hold, without reading them: Parquet's row count (its metadata), a text file's size over
 * ROW_BYTES, times the seat entries a row gives; undefined for a glob (its files unknown until DuckDB lists them) and for a file
 * whose size bounds nothing (a compressed .gz, .zst or .bz2 log, which DuckDB reads decompressed, or an unknown extension).
 */
async function decisionsAtMost(c: DuckDBConnection, files: readonly string[], f: LogFormat): Promise<number | undefined> {
  if (files.some((p) => /[*?[]/.test(p) || !PLAIN.test(p))) return undefined;
  const parquet = files.filter((p) => extname(p).toLowerCase() === '.parquet');
  let rows = files.filter((p) => !parquet.includes(p)).reduce((n, p) => n + Math.ceil(statSync(p).size / ROW_BYTES), 0);
  if (parquet.length) rows += Number((await queryRows(c, `SELECT sum(num_rows) AS n FROM parquet_file_metadata([${parquet.map(lit).join(', ')}])`))[0].n);
  return rows * f.seats.length;
}

/**
 * Make `table`, the per-(cell, match) rows of the files' decisions: in one query straight from the files when they cannot hold more
 * than ONE_QUERY_PASSES passes' decisions, else in passes over the staged decisions (dropped after).
 */
export async function makeMatchTable(c: DuckDBConnection, table: string, files: readonly string[], f: LogFormat, display: readonly string[],
  logger?: Logger, per = PASS_DECISIONS): Promise<void> {
  const most = await decisionsAtMost(c, files, f);
  if (most !== undefined && most <= ONE_QUERY_PASSES * per) {
    await withProgress(c, logger, c.run(`CREATE TABLE ${table} AS ${matchTableSql(stagedSql(files, f, display), f)}`));
    return;
  }
  await withProgress(c, logger, c.run(`CREATE TABLE ${STAGED} AS ${stagedSql(files, f, display)}`));
  const [{ n }] = await queryRows(c, `SELECT count(*) AS n FROM ${STAGED}`);
  const passes = passesFor(Number(n), per);
  for (let p = 0; p < passes; p++) {
    logger?.progress?.(engineMsg.passes(), p, passes);
    const typed = `SELECT * FROM ${STAGED}${passes > 1 ? ` WHERE sg_bucket % ${passes} = ${p}` : ''}`;
    await c.run(`${p === 0 ? `CREATE TABLE ${table} AS` : `INSERT INTO ${table}`} ${matchTableSql(typed, f)}`);
  }
  await c.run(`DROP TABLE ${STAGED}`);
}
