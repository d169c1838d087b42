/**
 * `export --format parquet`: the fixture store (test/reference/parquet-export/fixture-store.ts)
 * written as Hive-partitioned Parquet, read back by DuckDB, gives per cell the trials, valid trials
 * and cooperations that pyarrow read from the same export (counts.py → counts.json, committed);
 * the folder is written whole or not at all, and never to standard output.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { writeFixtureStore } from '../reference/parquet-export/fixture-store.js';

const reference = JSON.parse(readFileSync(new URL('../reference/parquet-export/counts.json', import.meta.url), 'utf8')) as {
  columns: string[]; cells: Array<{ model: string; game: string; framing: string; trials: number; valid: number; cooperations: number }>;
};

describe('export --format parquet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-parquet-'));
  const store = join(dir, 'fixture.sqlite');
  writeFixtureStore(store);

  it('writes model=…/game=…/framing=… files whose per-cell counts are those pyarrow read (counts.json)', async () => {
    const out = join(dir, 'pq');
    const r = await runCli(['export', store, '--format', 'parquet', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`exported ${reference.cells.reduce((s, c) => s + c.trials, 0)} trials`);
    expect(existsSync(join(out, 'model=llama%2Fz', 'game=stag-hunt', 'framing=business'))).toBe(true);
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const rows = (await c.runAndReadAll(`SELECT model, game, framing, count(*)::INTEGER AS trials, count(*) FILTER (WHERE status = 'ok')::INTEGER AS valid,
      count(*) FILTER (WHERE action = 'C')::INTEGER AS cooperations FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true)
      GROUP BY ALL ORDER BY model, game, framing`)).getRowObjectsJS();
    const columns = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true)`)).getRowObjectsJS()
      .map((x) => String(x.column_name)).sort();
    c.closeSync();
    // DuckDB leaves the partition values URI-encoded; pyarrow decodes them (llama%2Fz is llama/z)
    expect(rows.map((x) => ({ ...x, model: decodeURIComponent(String(x.model)) }))).toEqual(reference.cells);
    expect(columns).toEqual(reference.columns);
  });

  it('refuses a folder that exists and standard output, writing nothing', async () => {
    const r = await runCli(['export', store, '--format', 'parquet', '--out', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the Parquet folder exists already');
    const s = await runCli(['export', store, '--format', 'parquet']);
    expect(s.code).toBe(2);
    expect(s.stderr).toContain('export --format parquet writes a folder');
  });
});
