/**
 * A damaged store is refused, not analysed: 8 KiB of garbage written into the middle of a store
 * makes analyze, export, run and plan each print one line naming the store and exit 2, with
 * nothing written (no output directory, no export file, the store's bytes unchanged). Every SQLite
 * error (SqliteError with an SQLITE_* code) becomes that one line.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { checkIntegrity, storeGuard, StoreFault, StoreRefusal, type SqliteFailure } from '../../src/live/store/integrity.js';
import { TrialStore } from '../../src/live/store/store.js';
import { counts, writeStore } from '../helpers/store.js';
import { runCli, ROOT } from '../helpers/cli.js';

/** What the store's one guard makes of an error thrown while a store is used (storeGuard; its mapper is private to it). */
function storeError(path: string, e: unknown, how?: SqliteFailure): unknown {
  try { storeGuard(path, () => { throw e; }, how); } catch (x) { return x; }
  return undefined;
}

const QUICKSTART = join(ROOT, 'data/designs/quickstart.yaml');
const MODELS = ['alpha', 'bravo', 'charlie', 'delta'];
const GAMES = ['prisoners-dilemma', 'snowdrift', 'stag-hunt', 'harmony'];

let dir: string;
let good: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sg-integrity-'));
  good = join(dir, 'good.sqlite');
  // Large enough to span many pages (each trial carries a 2 KB prompt).
  const cells = MODELS.flatMap((model) => GAMES.flatMap((game) => ['business', 'friend-sharing'].map((framing) => ({ model, game, framing, actions: counts(20, 40) }))));
  writeStore(good, { name: 'big', models: MODELS, games: GAMES, framings: ['business', 'friend-sharing'] }, cells);
  const db = new Database(good);
  db.prepare("UPDATE trials SET prompt = printf('%.2000c', 'p')").run();
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

/** A copy of the good store with 8 KiB of seeded garbage at `fraction` of its length (page-aligned). */
function damaged(name: string, fraction: number): string {
  const bytes = readFileSync(good);
  const at = Math.floor((bytes.length * fraction) / 4096) * 4096;
  let x = 12345;
  for (let i = 0; i < 8192; i++) { x = (x * 1103515245 + 12345) >>> 0; bytes[at + i] = x >>> 24; }
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

function expectOneLine(r: { code: number | null; stderr: string; stdout: string }, store: string): void {
  expect(r.code).toBe(2);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(new RegExp(`^samegame: ${store.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(r.stdout).toBe('');
}

describe('a store with 8 KiB of garbage in the middle', () => {
  it('the good store is sound (the check passes) and is large enough for the garbage to land inside it', async () => {
    expect(readFileSync(good).length).toBeGreaterThan(16 * 8192);
    const db = new Database(good, { readonly: true });
    expect(() => checkIntegrity(db, good, true)).not.toThrow();
    db.close();
  });

  it('analyze, export, run and plan each give one line naming the store and exit 2, nothing written', async () => {
    const store = damaged('bad.sqlite', 0.5);
    const before = sha(store);
    const listing = () => readdirSync(dir).sort();
    const files = listing();
    const out = join(dir, 'out');
    expectOneLine(await runCli(['analyze', store, '--out', out, '--reps', '50']), store);
    expect(existsSync(out)).toBe(false);
    expectOneLine(await runCli(['export', store, '--format', 'csv', '--out', join(dir, 'x.csv')]), store);
    expectOneLine(await runCli(['export', store, '--format', 'jsonl']), store);
    expectOneLine(await runCli(['run', QUICKSTART, '--store', store]), store);
    expectOneLine(await runCli(['plan', store, '--target-halfwidth', '0.1', '--reps', '100']), store);
    expect(listing()).toEqual(files); // no export file, no temporary file, no -wal/-shm, no journal
    expect(sha(store)).toBe(before);
  });

  for (const fraction of [0.25, 0.75]) {
    it(`garbage at ${fraction} of the file: refused on opening, for reading and for writing, the store unchanged`, async () => {
      const store = damaged(`bad-${fraction}.sqlite`, fraction);
      const before = sha(store);
      expect(() => TrialStore.openExisting(store)).toThrow(UserError);
      expect(() => TrialStore.open(store)).toThrow(UserError);
      expect(sha(store)).toBe(before);
    });
  }

  it('--verify-store runs the full integrity_check: an index entry that no longer matches its row is found', async () => {
    // Change one model name inside a leaf page of the trials_cells index: the b-tree stays well formed
    // (quick_check passes), but the index no longer matches the table (integrity_check finds it).
    const db = new Database(good, { readonly: true });
    const pages = db.prepare("SELECT pageno FROM dbstat WHERE name = 'trials_cells' AND pagetype = 'leaf' ORDER BY pageno").pluck().all() as number[];
    db.close();
    const bytes = readFileSync(good);
    const page = pages.find((p) => bytes.subarray((p - 1) * 4096, p * 4096).includes('charlie'))!;
    const region = bytes.subarray((page - 1) * 4096, page * 4096);
    for (let at = region.indexOf('charlie'); at >= 0; at = region.indexOf('charlie', at + 1)) region[at + 6] = 'X'.charCodeAt(0);
    const store = join(dir, 'index.sqlite');
    writeFileSync(store, bytes);
    expect((await runCli(['export', store, '--format', 'csv'])).code).toBe(0); // the quick check does not look at index contents
    const r = await runCli(['export', store, '--format', 'csv', '--verify-store']);
    expectOneLine(r, store);
    expect(r.stderr).toMatch(/the trial store is damaged \(integrity_check found (a problem|\d+\+? problems), first: row \d+ missing from index trials_cells\)/);
    expect(r.stderr).toContain('missing from index trials_cells');
  });
});

describe('SQLite errors are one-line user errors naming the store', () => {
  it('storeError turns a SqliteError into a UserError and leaves other errors alone', async () => {
    const db = new Database(':memory:');
    let sqliteError: unknown;
    try { db.prepare('SELECT * FROM nosuch').all(); } catch (e) { sqliteError = e; }
    db.close();
    expect((sqliteError as Error).name).toBe('SqliteError');
    const u = storeError('s.sqlite', sqliteError);
    expect(u).toBeInstanceOf(UserError);
    expect((u as UserError).message).toBe('s.sqlite: cannot open the trial store (SQLITE_ERROR: no such table: nosuch)');
    expect((u as UserError).exitCode).toBe(2);
    const plain = new TypeError('x');
    expect(storeError('s.sqlite', plain)).toBe(plain);
    await expect(storeGuard('s.sqlite', async () => { throw sqliteError; })).rejects.toBeInstanceOf(UserError);
  });

  it('one mapper for readers and writers: a SQLite failure is "damaged" while reading rows, "cannot open" around a run', async () => {
    const sqlite = Object.assign(new Error('database disk image is malformed\nmore'), { name: 'SqliteError', code: 'SQLITE_CORRUPT' });
    const said = (e: unknown, how?: 'damaged' | 'unreadable') => (storeError('s.sqlite', e, how) as Error).message;
    expect(said(sqlite, 'damaged')).toBe('s.sqlite: the trial store is damaged or not one samegame wrote (database disk image is malformed)');
    expect(said(sqlite)).toBe('s.sqlite: cannot open the trial store (SQLITE_CORRUPT: database disk image is malformed\nmore)');
    expect(said(new SyntaxError('Unexpected token'), 'damaged')).toBe('s.sqlite: the trial store is damaged or not one samegame wrote (Unexpected token)');
    const syntax = new SyntaxError('x');
    expect(storeError('s.sqlite', syntax)).toBe(syntax); // a writer's SyntaxError is not the store's
    for (const how of ['damaged', 'unreadable'] as const) {
      expect(said(new StoreFault('cell ["m","g","f"]: factors are not a JSON object'), how)).toBe('s.sqlite: the trial store is damaged or not one samegame wrote (cell ["m","g","f"]: factors are not a JSON object)');
      expect(said(new StoreRefusal('cell ["m","g","f"]: model is reserved'), how)).toBe('s.sqlite: cell ["m","g","f"]: model is reserved');
    }
    // storeGuard: synchronous results and throws, and promises, through the same mapper.
    expect(storeGuard('s.sqlite', () => 7, 'damaged')).toBe(7);
    expect(() => storeGuard('s.sqlite', () => { throw new StoreFault('f'); }, 'damaged')).toThrow(UserError);
    await expect(storeGuard('s.sqlite', async () => { throw sqlite; }, 'damaged')).rejects.toThrow(/damaged or not one samegame wrote/);
    await expect(storeGuard('s.sqlite', () => Promise.resolve(8))).resolves.toBe(8);
  });

  it('opening a file that is not a database is one line (SQLITE_NOTADB), for readers and the writer', async () => {
    const p = join(dir, 'text.sqlite');
    writeFileSync(p, 'model,game\n'.repeat(1000));
    expect(() => TrialStore.openExisting(p)).toThrow(UserError);
    expect(() => TrialStore.open(p)).toThrow(UserError);
    expect(readFileSync(p, 'utf8')).toBe('model,game\n'.repeat(1000));
  });
});
