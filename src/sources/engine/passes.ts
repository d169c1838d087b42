/**
 * The per-match table of a log, made in passes so the engine's memory does not grow with the decisions: the files are scanned once
 * into a staged table of decisions (on disk, in the engine's database file), then the matches are taken a bucket at a time — a pass
 * holds the decisions of about PASS_DECISIONS of them — and each pass's per-(cell, match) rows are appended to the table the checks,
 * names, notes and aggregates read (wide.ts). A match's rows are all in one bucket (the bucket is a hash of the match), so every
 * pass sees whole matches and the rows are those of one query over all the decisions.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from '../../core/logger.js';
import type { LogFormat } from '../logs/schema.js';
import { queryRows, withProgress } from './engine.js';
import { engineMsg } from './messages.js';
import { BUCKETS, matchTableSql, stagedSql } from './wide.js';

/**
 * The decisions one pass holds (about): the window of a match's rows and the one of its cells, over 10^6 decisions, ran within a
 * memory limit of 80 MB (docs/methods.md §26).
 */
export const PASS_DECISIONS = 1_000_000;

/** The staged decisions' table. */
const STAGED = 'sg_staged';

/** The number of passes for `n` staged decisions: each takes BUCKETS / passes buckets, about `per` decisions. */
export const passesFor = (n: number, per = PASS_DECISIONS): number => Math.min(BUCKETS, Math.max(1, Math.ceil(n / per)));

/** Make `table`, the per-(cell, match) rows of the files' decisions, in passes; the staged decisions are dropped after. */
export async function makeMatchTable(c: DuckDBConnection, table: string, files: readonly string[], f: LogFormat, display: readonly string[],
  logger?: Logger, per = PASS_DECISIONS): Promise<void> {
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
