/**
 * `samegame batches STORE` on batch tables samegame did not write: another shape or text where a
 * count belongs is one line naming the store, exit 2; control characters stored in a chunk row
 * are shown as escapes, never sent raw to the terminal (one terminal-safe printer, core/terminal.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { counts, writeStore } from '../helpers/store.js';
import { runCli } from '../helpers/cli.js';
import { terminalText } from '../../src/core/terminal.js';
import { CHUNK_COLUMNS, chunkRows, formatTable } from '../../src/live/batch/list.js';
import { TrialStore } from '../../src/live/store/store.js';
import { UserError } from '../../src/core/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-batches-list-'));
let seq = 0;
const COLUMNS = 'id INTEGER PRIMARY KEY, run_id, model, endpoint, state, file, file_hash, lines, bytes, file_id, batch_id, status, completed, failed, stored, input_tokens, output_tokens, cost, updated';

function storeWithBatchTable(sql: string, params: unknown[] = []): string {
  const path = join(dir, `b${seq++}.sqlite`);
  writeStore(path, { name: 'x' }, [{ model: 'A', game: 'G', framing: 'business', actions: counts(1, 2) }]);
  const db = new Database(path);
  try {
    const [create, insert] = sql.split(';');
    db.exec(create);
    if (insert) db.prepare(insert).run(...params);
  } finally { db.close(); }
  return path;
}
const row = (over: Record<string, unknown> = {}) => {
  const r: Record<string, unknown> = { id: 1, run_id: 1, model: 'm', endpoint: '/v1/responses', state: 'created', file: 'f.jsonl', file_hash: 'h', lines: 3, bytes: 30,
    file_id: 'file-1', batch_id: 'batch-1', status: 'in_progress', completed: 1, failed: 0, stored: 0, input_tokens: 0, output_tokens: 0, cost: 0.5, updated: 'now', ...over };
  return [`CREATE TABLE batch_chunks (${COLUMNS}); INSERT INTO batch_chunks VALUES (${Object.keys(r).map(() => '?').join(', ')})`, Object.values(r)] as const;
};
// Every C0 and C1 control character, DEL and the two separators: none may reach the terminal raw.
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

describe('samegame batches on a table samegame did not write', () => {
  it.each([
    ['another shape', 'CREATE TABLE batch_chunks (id INTEGER PRIMARY KEY, foo TEXT); INSERT INTO batch_chunks VALUES (1, \'x\')', [], 'the table has no column run_id'],
    ['text where a count belongs', ...row({ lines: 'many' }), 'chunk 1: lines is "many", not a count'],
    ['text where the cost belongs', ...row({ cost: 'cheap' }), 'chunk 1: cost is "cheap", not a number'],
    ['an unknown state', ...row({ state: 'lost' }), 'chunk 1: state is "lost", not one of prepared, uploaded, created, collected'],
  ] as [string, string, unknown[], string][])('%s: one line, exit 2', async (_n, sql, params, want) => {
    const store = storeWithBatchTable(sql, params);
    const r = await runCli(['batches', store]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(`samegame: ${store}: the batch table is damaged or not one samegame wrote (${want})\n`);
    expect(r.stdout).toBe('');
  });

  it('control characters in a chunk row are printed as escapes', async () => {
    const store = storeWithBatchTable(...row({ model: 'm\u001b[31mRED', batch_id: 'b\u009b2J', status: 'in\rprogress\u2028' }));
    const r = await runCli(['batches', store]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain('m\\u{1b}[31mRED');
    expect(r.stdout).toContain('b\\u{9b}2J');
    expect(r.stdout).toContain('in\\u{d}progress\\u{2028}');
  });
});

describe('terminalText (property)', () => {
  it('leaves no control character, keeps every other character, and is one-to-one on what it changes', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.boolean(), (s, lines) => {
      const t = terminalText(s, lines);
      expect(t.replace(/\n/g, lines ? '' : '\n')).not.toMatch(RAW);
      if (!lines) expect(t).not.toContain('\n');
      // Undo the escapes: the original comes back (a literal "\u{" in the input is left as it is written).
      if (!s.includes('\\u{')) expect(t.replace(/\\u\{([0-9a-f]+)\}/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))).toBe(s);
    }), { numRuns: 500 });
  });
});

describe('the chunk table reader over arbitrary rows (property)', () => {
  it('a table of terminal-safe text, or one line naming the store', () => {
    const value = fc.oneof(fc.integer({ min: -2, max: 5 }), fc.double({ noNaN: true }), fc.constant(null), fc.string({ unit: 'binary', maxLength: 6 }),
      fc.constantFrom('created', 'collected', 'in_progress', '\u001b[2J', '3'));
    const cols = ['run_id', 'model', 'endpoint', 'state', 'file', 'file_hash', 'lines', 'bytes', 'file_id', 'batch_id', 'status', 'completed', 'failed', 'stored', 'input_tokens', 'output_tokens', 'cost', 'updated'];
    fc.assert(fc.property(fc.dictionary(fc.constantFrom(...cols), value), (over) => {
      const path = storeWithBatchTable(...row(over));
      const store = TrialStore.openExisting(path);
      try {
        const text = formatTable(CHUNK_COLUMNS, chunkRows(store, 'STORE'));
        expect(text.split('\n')).toHaveLength(2);
        expect(text.replace(/\n/g, '')).not.toMatch(RAW);
      } catch (e) {
        expect(e).toBeInstanceOf(UserError);
        expect((e as Error).message).toMatch(/^STORE: the batch table is damaged or not one samegame wrote \(/);
      } finally { store.close(); }
    }), { numRuns: 60 });
  });
});
