/**
 * The one opener of an existing store (live/store/open.ts: existingStore, storeIfPresent) handed to
 * the store's one guard (storeGuard): it reads the store read-only, closes it when the use ends (a
 * promise included, and on failure), gives no store when none is there, and says every failure in
 * the store's one line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { existingStore, storeIfPresent } from '../../src/live/store/open.js';
import { storeGuard } from '../../src/live/store/integrity.js';
import { TrialStore } from '../../src/live/store/store.js';

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), 'sg-open-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const dbOf = (s: TrialStore) => (s as unknown as { db: Database.Database }).db;
const design = { name: 'd', hash: 'h1', json: '{}', toolVersion: 't', started: '2026-01-01' };

function storeWithRun(): string {
  const path = join(tmp(), 's.sqlite');
  const s = TrialStore.open(path);
  s.openRun(design);
  s.close();
  return path;
}

describe('storeGuard with existingStore / storeIfPresent', () => {
  it('reads the store read-only and closes it after a synchronous use', () => {
    const path = storeWithRun();
    let seen: TrialStore | undefined;
    const hash = storeGuard(path, (s) => { seen = s; expect(dbOf(s).readonly).toBe(true); return s.findRun('h1')?.designHash; }, existingStore(path, {}));
    expect(hash).toBe('h1');
    expect(dbOf(seen!).open).toBe(false);
  });

  it('keeps the store open until a promise settles, and closes it when the use fails', async () => {
    const path = storeWithRun();
    let seen: TrialStore | undefined;
    const p = storeGuard(path, async (s) => { seen = s; await new Promise((r) => setTimeout(r, 5)); return dbOf(s).open; }, existingStore(path, { verify: true }));
    expect(dbOf(seen!).open).toBe(true);
    expect(await p).toBe(true);
    expect(dbOf(seen!).open).toBe(false);
    await expect(storeGuard(path, async (s) => { seen = s; throw new Error('boom'); }, existingStore(path, {}))).rejects.toThrow('boom');
    expect(dbOf(seen!).open).toBe(false);
    expect(() => storeGuard(path, (s) => { seen = s; throw new Error('bang'); }, existingStore(path, {}))).toThrow('bang');
    expect(dbOf(seen!).open).toBe(false);
  });

  it('gives no store when none is at the path, and refuses an absent or foreign file in one line', () => {
    const dir = tmp();
    const none = join(dir, 'none.sqlite');
    expect(storeGuard(none, (s) => s, storeIfPresent(none, {}))).toBeUndefined();
    expect(() => storeGuard(none, () => 1, existingStore(none, {}))).toThrow(UserError);
    const junk = join(dir, 'junk.sqlite');
    writeFileSync(junk, 'not a database at all, just text that is long enough to fill a header.');
    expect(() => storeGuard(junk, () => 1, storeIfPresent(junk, {}))).toThrow(UserError);
  });

  it('turns a SQLite failure while the store is used into the store\'s one line', () => {
    const path = storeWithRun();
    const e = (() => { try { storeGuard(path, (s) => dbOf(s).prepare('SELECT * FROM no_such_table').all(), existingStore(path, {})); } catch (x) { return x; } })();
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).toBe(`${path}: cannot open the trial store (SQLITE_ERROR: no such table: no_such_table)`);
  });
});
