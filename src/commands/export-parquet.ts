/**
 * `samegame export --format parquet --out DIR`: the trials of a store as Hive-partitioned Parquet
 * (DIR/model=…/game=…/framing=…/data_0.parquet), readable by DuckDB, pandas/pyarrow, Polars and R
 * arrow. The CSV export (commands/export.ts: the same columns and values) is streamed to a
 * temporary file, then DuckDB copies it, typed, into a folder beside DIR, renamed to DIR when whole:
 * DIR is written whole or not at all.
 */
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { writeStreamAtomic } from '../core/atomic.js';
import { makeDirs } from '../core/out-dir.js';
import type { TrialStore } from '../live/store/store.js';
import { lit, withEngine } from '../sources/engine/index.js';
import { PARQUET_PARTITIONS, PARQUET_TYPES as TYPES } from '../sources/export-layout.js';
import { writeTrials } from './export.js';
import { commandsMsg } from './messages.js';

/** Write the store's trials (one run with `runId`) under `out` as Hive-partitioned Parquet; the number of trials. */
export async function writeParquet(store: TrialStore, out: string, runId?: number): Promise<number> {
  const target = resolve(out);
  if (existsSync(target)) throw new UserError(commandsMsg.parquetOutExists(out));
  const made = makeDirs(dirname(target)); // the folders above DIR, made as a file's are, and removed when the export fails
  const work = mkdtempSync(join(tmpdir(), 'samegame-parquet-'));
  const staging = mkdtempSync(join(dirname(target), '.samegame-parquet-'));
  try {
    const csv = join(work, 'trials.csv');
    const n = await writeStreamAtomic(csv, (write) => writeTrials(store, 'csv', write, runId));
    const into = join(staging, 'out');
    await withEngine(out, async (c) => {
      const columns = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_csv(${lit(csv)}, header = true, all_varchar = true, quote = '"', escape = '"')`))
        .getRowObjectsJS().map((r) => String(r.column_name));
      const select = columns.map((name) => {
        const q = `"${name.replace(/"/g, '""')}"`;
        return TYPES[name] ? `CAST(nullif(${q}, '') AS ${TYPES[name]}) AS ${q}` : q;
      }).join(', ');
      await c.run(`COPY (SELECT ${select} FROM read_csv(${lit(csv)}, header = true, all_varchar = true, quote = '"', escape = '"'))
        TO ${lit(into)} (FORMAT parquet, PARTITION_BY (${PARQUET_PARTITIONS.join(', ')}))`);
    });
    renameSync(into, target);
    return n;
  } catch (e) {
    if (made.length > 0) rmSync(made[0], { recursive: true, force: true });
    throw e;
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}
