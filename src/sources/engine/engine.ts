/**
 * The embedded query engine (DuckDB, `@duckdb/node-api`): one database per reading, a file in a
 * folder of its own (its tables on disk, its spills beside them) removed after, a memory limit so a
 * scan larger than memory spills to disk, results streamed chunk by chunk into the per-match
 * aggregates (core/aggregates.ts), and the scan's progress on the logger.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { MatchAggregates, STATE_SLOTS } from '../../core/aggregates.js';
import { UserError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { engineMsg } from './messages.js';

/**
 * The engine's settings: a memory limit well under the 1 GB budget of the process, spilling to a folder of its own; the database file
 * is thrown away with its folder, so closing it does not checkpoint its tables to disk (0.1 s of a 2.2 s read of 10^6 decisions).
 */
export const engineSettings = (spill: string): string[] => ["SET memory_limit = '384MB'", 'SET preserve_insertion_order = false',
  'PRAGMA disable_checkpoint_on_shutdown',
  `SET temp_directory = '${spill.replace(/'/g, "''")}'`];

/**
 * Set before the per-match rows are streamed into the aggregates: the tables are made, so the engine gives back the buffers the scan
 * and the passes held (their pages are in the database file) while the aggregates grow on the JavaScript side; the sort of the stream
 * spills below it. At 10^7 decisions of Parquet this took the process's peak from 880 to about 720 MiB (docs/methods.md §26).
 */
export const STREAM_MEMORY_LIMIT = "SET memory_limit = '128MB'";

/** Run `fn` on a fresh database; a DuckDB error (an unreadable file, a malformed row) becomes a UserError naming the files. */
export async function withEngine<T>(files: string, fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
  const spill = mkdtempSync(join(tmpdir(), 'samegame-duckdb-'));
  const db = await DuckDBInstance.create(join(spill, 'engine.duckdb')).catch((e: unknown) => {
    rmSync(spill, { recursive: true, force: true });
    throw e;
  });
  let c: DuckDBConnection | undefined;
  try {
    c = await db.connect();
    for (const s of engineSettings(spill)) await c.run(s);
    return await fn(c);
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(engineMsg.engineFailed(files, (e as Error).message));
  } finally {
    // each closed on its own, and the folder removed whatever a close throws
    try { c?.closeSync(); } catch { /* the database's close below ends it */ }
    try { db.closeSync(); } catch { /* the folder is removed below */ }
    rmSync(spill, { recursive: true, force: true });
  }
}

/** The rows of a query as plain values (BIGINT as number), all at once: for small results (checks, names, notes). */
export async function queryRows(c: DuckDBConnection, sql: string): Promise<Array<Record<string, unknown>>> {
  const r = await c.runAndReadAll(sql);
  return r.getRowObjectsJS().map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])));
}

/** Every second while `work` runs, the scan's progress (percent) on the logger. */
export async function withProgress<T>(c: DuckDBConnection, logger: Logger | undefined, work: Promise<T>): Promise<T> {
  if (!logger?.progress) return work;
  const timer = setInterval(() => {
    const p = c.progress.percentage;
    if (p >= 0) logger.progress!(engineMsg.scanning(), Math.round(p), 100);
  }, 1000);
  try { return await work; } finally { clearInterval(timer); }
}

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** The whole numbers of a packed text (wide.ts), into `out` from 0; their count. */
function unpack(packed: string, out: number[]): number {
  let n = 0, x = 0, digits = false;
  for (let i = 0; i <= packed.length; i++) {
    const ch = i < packed.length ? packed.charCodeAt(i) : 32;
    if (ch >= 48 && ch <= 57) { x = x * 10 + (ch - 48); digits = true; } else if (ch === 32 && digits) { out[n++] = x; x = 0; digits = false; }
    else if (ch !== 32) return -1;
  }
  return n;
}

/**
 * Stream the per-match rows of wide.ts (columns model, game, framing, opponent, the factors, match, packed) into MatchAggregates;
 * `bad` names a row whose counts are not a whole match (row index, the packed text), `tooLarge` a match whose counts add up past
 * what a match holds (2^32 − 1: its key and id; the stream is left unread).
 */
export async function streamMatches(c: DuckDBConnection, sql: string, factors: readonly string[], logger: Logger | undefined,
  bad: (row: number, column: string, value: string) => never, tooLarge: (key: string[], match: string) => Promise<never>): Promise<MatchAggregates> {
  return withProgress(c, logger, (async () => {
    const agg = new MatchAggregates(factors);
    const result = await c.stream(sql);
    const width = 4 + factors.length;
    const numbers: number[] = [];
    let scratch = new Float64Array(256);
    let index = 0, open: string | undefined;
    const matches = new Map<string, string>();
    for await (const rows of result.yieldRowsJs()) {
      for (const row of rows) {
        index++;
        const packed = text(row[width + 1]);
        const n = unpack(packed, numbers);
        if (n < STATE_SLOTS || (n - STATE_SLOTS) % 4 !== 0) bad(index, 'packed', packed);
        let rounds = 0;
        for (let i = STATE_SLOTS; i < n; i += 4) rounds = Math.max(rounds, numbers[i]);
        const length = STATE_SLOTS + 3 * rounds;
        if (scratch.length < length) scratch = new Float64Array(Math.max(length, 2 * scratch.length));
        const counts = scratch.subarray(0, length).fill(0); // one buffer for every row: the cell copies the counts
        for (let i = 0; i < STATE_SLOTS; i++) counts[i] = numbers[i];
        for (let i = STATE_SLOTS; i < n; i += 4) {
          const at = STATE_SLOTS + 3 * (numbers[i] - 1);
          if (numbers[i] < 1) bad(index, 'round', String(numbers[i]));
          counts[at] += numbers[i + 1]; counts[at + 1] += numbers[i + 2]; counts[at + 2] += numbers[i + 3];
        }
        const key: string[] = [];
        for (let k = 0; k < width; k++) key.push(text(row[k]));
        const id = JSON.stringify(key);
        if (id !== open) { if (open !== undefined) agg.trimCell(open); open = id; } // rows sorted by key: a cell left is complete
        let match = text(row[width]);
        const seen = matches.get(match); // a match's id once, however many cells (seats) it has
        if (seen === undefined) matches.set(match, match); else match = seen;
        try {
          agg.addMatch(key, match, counts);
        } catch (e) {
          if (e instanceof RangeError) await tooLarge(key, match);
          throw e;
        }
      }
    }
    if (open !== undefined) agg.trimCell(open);
    return agg;
  })());
}
