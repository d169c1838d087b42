import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { querySync } from '../../src/sources/parquet/sync-query.js';

/** The synchronous engine (a child process): rows back as plain values, files named relative to its cwd, and a child that takes too long ended. */
const dir = mkdtempSync(join(tmpdir(), 'samegame-sync-query-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('runs the statements in the given folder: a relative name is a file there, read literally', () => {
  writeFileSync(join(dir, 'a.csv'), 'x\n2\n5\n');
  expect(querySync('a.csv', ["SELECT sum(x) AS s FROM read_csv('a.csv', header = true)"], { cwd: dir })).toEqual([[{ s: 7 }]]);
}, 60_000);

it('a child that outlives its time is stopped: one line naming the files, not a wait without end', () => {
  expect(() => querySync('slow.parquet', ['SELECT 1'], { timeoutMs: 1 })).toThrow(UserError);
  expect(() => querySync('slow.parquet', ['SELECT 1'], { timeoutMs: 1 })).toThrow('slow.parquet: the query engine did not finish within 0.001 s: stopped');
}, 60_000);
