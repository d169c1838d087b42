/**
 * Nothing billed twice: a store has one writer. Two `run`s on one store against a counting
 * loopback server: the second refuses at once with one line naming the holder (pid, host, since),
 * read-only commands work while the first holds the store, and the server sees exactly one
 * request per planned trial. A lock left by a killed process is taken over; one held on another
 * host is refused.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holderAlive, takeWriterLock } from '../../src/live/store/lock.js';
import { TrialStore } from '../../src/live/store/store.js';
import { UserError } from '../../src/core/errors.js';
import { startLoopback } from '../helpers/loopback-openai.js';
import { cleanEnv, ROOT, runCli, startCli } from '../helpers/cli.js';
import { storeMsg } from '../../src/live/store/messages.js';

const QUICKSTART = join(ROOT, 'data/designs/quickstart.yaml');
const TOTAL = 2 * 4 * 4 * 25; // quickstart: models × games × framings × trials, by hand
// A backstop for a loaded machine, not a measurement: every wait inside is on an event.
const SPAWNS_TIMEOUT = 300_000;

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-lock-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pid that was alive and is not any more (a process that has exited). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

function setLock(path: string, pid: number, host: string, since: string): void {
  const db = new Database(path);
  db.prepare('INSERT OR REPLACE INTO writer_lock (id, pid, host, since) VALUES (1, ?, ?, ?)').run(pid, host, since);
  db.close();
}

describe('the writer lock', () => {
  it('two concurrent runs: the second refuses at once naming the holder; readers work meanwhile; one request per trial', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => { open = r; });
    const srv = await startLoopback({ hold: () => gate });
    try {
      const store = join(dir, 'two.sqlite');
      const args = ['run', QUICKSTART, '--store', store, '--provider', 'openai-chat', '--base-url', srv.url, '--model', 'loop', '--concurrency', '8'];
      const first = startCli(args, { env: cleanEnv() });
      // The first run holds the store once its first requests arrive (they wait at the gate).
      await srv.waitFor('request', 8);
      const second = await runCli(args, { env: cleanEnv() });
      expect(second.code).toBe(2);
      const lines = second.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^samegame: ${store.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: another samegame run is writing this store `
        + `\\(pid ${first.child.pid} on ${hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)`));
      // Read-only commands work while the run holds the store.
      const exported = await runCli(['export', store, '--format', 'csv']);
      expect(exported.code).toBe(0);
      const dry = await runCli([...args, '--dry-run']);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toContain(`dry run: ${TOTAL} calls`);
      open();
      const r1 = await first.done;
      expect(r1.code).toBe(0);
      // Calls = planned trials: every trial requested once, none twice.
      expect(srv.requests.size).toBe(TOTAL);
      expect([...srv.requests.values()].every((n) => n === 1)).toBe(true);
      const db = new Database(store, { readonly: true });
      expect([db.prepare('SELECT count(*) FROM trials').pluck().get(), db.prepare('SELECT count(*) FROM writer_lock').pluck().get()]).toEqual([TOTAL, 0]);
      db.close();
    } finally {
      open();
      await srv.close();
    }
  }, SPAWNS_TIMEOUT);

  it('a lock left by a killed process (its pid not alive on this host) is taken over', async () => {
    const store = join(dir, 'stale.sqlite');
    TrialStore.open(store).close();
    setLock(store, deadPid(), hostname(), '2026-01-01T00:00:00.000Z');
    const r = await runCli(['run', QUICKSTART, '--store', store, '-q'], { env: cleanEnv() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`done: ${TOTAL} trials stored`);
  }, SPAWNS_TIMEOUT);

  it('a lock held on another host cannot be checked and is refused, naming it', async () => {
    const store = join(dir, 'remote.sqlite');
    TrialStore.open(store).close();
    setLock(store, 4242, 'elsewhere.example', '2026-01-01T00:00:00.000Z');
    const r = await runCli(['run', QUICKSTART, '--store', store], { env: cleanEnv() });
    expect([r.code, r.stderr]).toEqual([2, `samegame: ${storeMsg.storeLocked(store, 4242, 'elsewhere.example', '2026-01-01T00:00:00.000Z')}\n`]);
  });

  it('in one process: a second writer is refused while the first is open, and the lock is given back on close', () => {
    const store = join(dir, 'inproc.sqlite');
    const a = TrialStore.open(store);
    expect(() => TrialStore.open(store)).toThrow(UserError);
    const reader = TrialStore.openExisting(store); // readers ignore the lock
    reader.close();
    a.close();
    TrialStore.open(store).close();
    const db = new Database(store);
    expect(takeWriterLock(db, { pid: 1, host: 'h1', since: 's1' })).toBeUndefined();
    expect(takeWriterLock(db, { pid: 2, host: 'h2', since: 's2' })).toEqual({ pid: 1, host: 'h1', since: 's1' });
    db.close();
  });
});

describe('who holds a lock', () => {
  const me = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  it('our own pid: this process when taken since it started, else an earlier process with the same pid (dead)', () => {
    const started = Date.parse('2026-06-01T12:00:00.000Z');
    expect(holderAlive({ ...me, since: '2026-06-01T12:00:05.000Z' }, me, started)).toBe(true);
    expect(holderAlive({ ...me, since: '2026-06-01T11:59:00.000Z' }, me, started)).toBe(false);
  });
  it('another host: cannot be checked, so alive; a dead pid here: not alive', () => {
    expect(holderAlive({ pid: deadPid(), host: 'elsewhere.example', since: me.since }, me)).toBe(true);
    expect(holderAlive({ pid: deadPid(), host: me.host, since: me.since }, me)).toBe(false);
    expect(holderAlive({ pid: process.ppid, host: me.host, since: me.since }, me)).toBe(true);
  });
});
