/**
 * Read-only stores: export, analyze and plan open the store read-only and leave nothing beside
 * it — no -wal/-shm — so a store the user may not write (mode 0444 in a 0555 directory) is read
 * like any other. The tests run as root, which ignores permissions, so they assert on the open
 * mode and on the directory's listing; where setpriv is available the same commands also run as
 * the unprivileged user nobody, for whom the permissions hold.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite from 'better-sqlite3';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrialStore } from '../../src/live/store/store.js';
import { counts, writeStore } from '../helpers/store.js';
import { BIN, runCli, cleanEnv } from '../helpers/cli.js';
import { storeMsg } from '../../src/live/store/messages.js';

const NOBODY = 65534;
const GAMES = ['prisoners-dilemma', 'snowdrift'];
const cells = ['m1', 'm2'].flatMap((model) => GAMES.flatMap((game) => ['business', 'friend-sharing'].map((framing, i) => ({
  model, game, framing, actions: counts(10 + 5 * i, 30),
}))));
const TRIALS = cells.length * 30;

let root: string;
let storeDir: string;
let store: string;
let outDir: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'sg-readonly-'));
  chmodSync(root, 0o755);
  storeDir = join(root, 'ro');
  store = join(storeDir, 's.sqlite');
  writeStore(store, { name: 'ro', models: ['m1', 'm2'], games: GAMES, framings: ['business', 'friend-sharing'] }, cells);
  chmodSync(store, 0o444);
  chmodSync(storeDir, 0o555);
  outDir = join(root, 'out');
  // Where analyze may write (as nobody too): a world-writable folder.
  spawnSync('mkdir', ['-m', '0777', outDir]);
});
afterAll(() => {
  chmodSync(storeDir, 0o755);
  rmSync(root, { recursive: true, force: true });
});

const listing = () => readdirSync(storeDir).sort();

describe('a store in a read-only directory', () => {
  it('is opened read-only by the readers, and a store at rest is one file (no -wal/-shm)', async () => {
    expect(listing()).toEqual(['s.sqlite']);
    expect([...readFileSync(store).subarray(18, 20)]).toEqual([1, 1]); // rollback mode at rest
    const s = TrialStore.openExisting(store);
    expect((s as unknown as { db: Database.Database }).db.readonly).toBe(true);
    expect(s.statusCounts().ok).toBe(TRIALS);
    s.close();
    expect(listing()).toEqual(['s.sqlite']);
  });

  it('export, analyze and plan read it and leave nothing beside it', async () => {
    const before = readFileSync(store);
    const e = await runCli(['export', store, '--format', 'csv']);
    expect(e.code).toBe(0);
    expect(e.stdout.trim().split('\n')).toHaveLength(1 + TRIALS);
    const a = await runCli(['analyze', store, '--out', join(outDir, 'root'), '--reps', '50', '-q']);
    expect(a.code).toBe(0);
    const p = await runCli(['plan', store, '--target-halfwidth', '0.2', '--reps', '100']);
    expect(p.code).toBe(0);
    expect(listing()).toEqual(['s.sqlite']);
    expect(readFileSync(store).equals(before)).toBe(true);
  });

  const canDrop = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
  it.skipIf(!canDrop)('as the unprivileged user nobody (setpriv): export, analyze and plan succeed (skipped unless root with setpriv)', () => {
    const asNobody = (args: string[]) => {
      const r = spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, BIN, ...args],
        { cwd: root, encoding: 'utf8', env: cleanEnv({ HOME: root }), timeout: 120_000 });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const e = asNobody(['export', store, '--format', 'jsonl']);
    expect(e.stderr).toBe('');
    expect(e.code).toBe(0);
    expect(e.stdout.trim().split('\n')).toHaveLength(TRIALS);
    const a = asNobody(['analyze', store, '--out', join(outDir, 'nobody'), '--reps', '50', '-q']);
    expect([a.code, a.stderr]).toEqual([0, '']);
    const p = asNobody(['plan', store, '--target-halfwidth', '0.2', '--reps', '100']);
    expect([p.code, p.stderr]).toEqual([0, '']);
    expect(listing()).toEqual(['s.sqlite']);
  });

  it.skipIf(!canDrop)('as nobody, a store left in WAL mode without -wal/-shm is one line naming the cause (skipped unless root with setpriv)', () => {
    const legacyDir = join(root, 'legacy');
    const legacy = join(legacyDir, 'w.sqlite');
    writeStore(legacy, { name: 'legacy' }, cells.slice(0, 2));
    const db = new BetterSqlite(legacy);
    db.pragma('journal_mode = WAL'); // as older versions left a store at rest
    db.close();
    expect(readdirSync(legacyDir)).toEqual(['w.sqlite']);
    chmodSync(legacy, 0o444);
    chmodSync(legacyDir, 0o555);
    try {
      const r = spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, BIN, 'export', legacy, '--format', 'csv'],
        { cwd: root, encoding: 'utf8', env: cleanEnv({ HOME: root }), timeout: 120_000 });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`samegame: ${storeMsg.storeWalReadOnly(legacy)}\n`);
    } finally {
      chmodSync(legacyDir, 0o755);
    }
  });
});
