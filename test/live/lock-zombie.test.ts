/**
 * The writer lock is never held by a dead process: a zombie (state Z in /proc/PID/stat, which
 * kill(pid, 0) still reaches) is dead, and a pid now used by another process than the one that
 * took the lock (its start time, field 22, differs) is not the holder.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holderAlive, pidAlive } from '../../src/live/store/lock.js';
import { TrialStore } from '../../src/live/store/store.js';

const HAS_PROC = existsSync('/proc/self/stat');
const statOf = (pid: number) => { const t = readFileSync(`/proc/${pid}/stat`, 'utf8'); return t.slice(t.lastIndexOf(')') + 2).split(' '); };

/** A zombie: a child of `sleep 30` (which never reaps) that has exited. */
let parent: ReturnType<typeof spawn> | undefined;
let zombie = 0;
beforeAll(async () => {
  if (!HAS_PROC) return;
  parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  zombie = Number(await new Promise<string>((resolve) => parent!.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()))));
  for (let i = 0; i < 200 && statOf(zombie)[0] !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
});
afterAll(() => { parent?.kill('SIGKILL'); });

describe.runIf(HAS_PROC)('who holds the writer lock', () => {
  const me = { pid: process.pid, host: hostname(), since: new Date().toISOString(), start: statOf(process.pid)[19] };

  it('a zombie is dead, although kill(pid, 0) reaches it', () => {
    expect(statOf(zombie)[0]).toBe('Z');
    expect(() => process.kill(zombie, 0)).not.toThrow();
    expect(pidAlive(zombie)).toBe(false);
    expect(holderAlive({ pid: zombie, host: me.host, since: me.since }, me)).toBe(false);
  });

  it('a live pid whose start time is not the recorded one is another process (pid reused): not the holder', () => {
    const ppid = process.ppid;
    const real = statOf(ppid)[19];
    expect(holderAlive({ pid: ppid, host: me.host, since: me.since, start: real }, me)).toBe(true);
    expect(holderAlive({ pid: ppid, host: me.host, since: me.since, start: String(Number(real) + 1) }, me)).toBe(false);
    // Our own pid: the holder only when the start times match.
    expect(holderAlive({ ...me }, me)).toBe(true);
    expect(holderAlive({ ...me, start: String(Number(me.start) + 1) }, me)).toBe(false);
  });

  it('a store locked by a zombie is taken over; the lock records the start time', () => {
    const d = mkdtempSync(join(tmpdir(), 'samegame-zombie-'));
    const path = join(d, 's.sqlite');
    TrialStore.open(path).close();
    const db = new Database(path);
    db.prepare('INSERT OR REPLACE INTO writer_lock (id, pid, host, since) VALUES (1, ?, ?, ?)').run(zombie, hostname(), '2026-01-01T00:00:00.000Z');
    db.close();
    const store = TrialStore.open(path);
    const rdb = new Database(path, { readonly: true });
    const row = rdb.prepare('SELECT * FROM writer_lock').get() as Record<string, unknown>;
    rdb.close();
    expect(row.pid).toBe(process.pid);
    expect(row.start).toBe(me.start);
    store.close();
  });
});
