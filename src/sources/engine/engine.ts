/**
 * The embedded query engine (DuckDB, `@duckdb/node-api`): one in-memory database per reading, a
 * memory limit so a scan larger than memory spills to disk, results streamed chunk by chunk into
 * the per-match aggregates (core/aggregates.ts), and the scan's progress on the logger.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { AGGREGATE_STATES, MatchAggregates } from '../../core/aggregates.js';
import { UserError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { engineMsg } from './messages.js';

/** The engine's settings: a memory limit well under the 1 GB budget of the process, spilling to a folder of its own. */
const settings = (spill: string) => ["SET memory_limit = '384MB'", 'SET preserve_insertion_order = false',
  `SET temp_directory = '${spill.replace(/'/g, "''")}'`];

/** Run `fn` on a fresh in-memory database; a DuckDB error (an unreadable file, a malformed row) becomes a UserError naming the files. */
export async function withEngine<T>(files: string, fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const spill = mkdtempSync(join(tmpdir(), 'samegame-duckdb-'));
  try {
    for (const s of settings(spill)) await c.run(s);
    return await fn(c);
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(engineMsg.engineFailed(files, (e as Error).message));
  } finally {
    c.closeSync();
    db.closeSync();
    rmSync(spill, { recursive: true, force: true });
  }
}

/** The rows of a query as plain values (BIGINT as number), all at once: for small results (checks, names, notes). */
export async function queryRows(c: DuckDBConnection, sql: string): Promise<Array<Record<string, unknown>>> {
  const r = await c.runAndReadAll(sql);
  return r.getRowObjectsJS().map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])));
}

/** Every second while `work` runs, the scan's progress (percent) on the logger. */
async function withProgress<T>(c: DuckDBConnection, logger: Logger | undefined, work: Promise<T>): Promise<T> {
  if (!logger?.progress) return work;
  const timer = setInterval(() => {
    const p = c.progress.percentage;
    if (p >= 0) logger.progress!(engineMsg.scanning(), Math.round(p), 100);
  }, 1000);
  try { return await work; } finally { clearInterval(timer); }
}

const num = (v: unknown): number => Number(v);
const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/**
 * Stream an aggregates query (columns model, game, framing, opponent, the factors, match, round, previous, decisions, valid,
 * cooperations) into MatchAggregates; `bad` names a value no aggregates table holds (row index, column, value).
 */
export async function streamAggregates(c: DuckDBConnection, sql: string, factors: readonly string[], logger: Logger | undefined,
  bad: (row: number, column: string, value: string) => never): Promise<MatchAggregates> {
  return withProgress(c, logger, (async () => {
  const agg = new MatchAggregates(factors);
  const result = await c.stream(sql);
  const names = result.columnNames();
  const at = (n: string) => names.indexOf(n);
  const keyAt = ['model', 'game', 'framing', 'opponent', ...factors].map(at);
  const [m, r, p, d, v, k] = ['match', 'round', 'previous', 'decisions', 'valid', 'cooperations'].map(at);
  let index = 0;
  for await (const rows of result.yieldRowsJs()) {
    for (const row of rows) {
      index++;
      const previous = AGGREGATE_STATES.indexOf(text(row[p]) as typeof AGGREGATE_STATES[number]);
      if (previous < 0) bad(index, 'previous', text(row[p]));
      const round = num(row[r]), decisions = num(row[d]), valid = num(row[v]), coop = num(row[k]);
      if (!(Number.isInteger(round) && round >= 1)) bad(index, 'round', text(row[r]));
      if (!(Number.isInteger(decisions) && decisions >= valid && valid >= coop && coop >= 0)) bad(index, 'decisions', text(row[d]));
      agg.add({ key: keyAt.map((i) => text(row[i])), match: text(row[m]), round, previous, decisions, valid, cooperations: coop });
    }
  }
  return agg;
  })());
}
