/**
 * One writer per store. Two `run`s on one store would each request the trials the other has not
 * stored yet, and every such trial would be paid twice; so `run` takes the store's writer lock
 * before it requests anything, and a second `run` refuses at once, naming the holder.
 *
 * The lock is a row of a table inside the store, not a lock file beside it. Taking it is one
 * BEGIN IMMEDIATE transaction — read the row, judge the holder, replace it — so SQLite's own
 * write lock makes check-and-take atomic, including the take-over of a stale lock: two processes
 * that both find a dead holder cannot both win, which an O_EXCL lock file cannot promise without
 * a second unlink-and-recreate race. The row travels with the store when it is copied or moved,
 * needs no write permission beyond what a run needs anyway, and leaves no file to clean up.
 * A holder is stale when it ran on this host and its pid is no longer alive (a killed run); a
 * holder on another host cannot be checked, so it is refused (SQLite over a network file system
 * is unsafe for concurrent writers in any case). Read-only commands never look at the lock.
 */
import type Database from 'better-sqlite3';
import { hostname } from 'node:os';

export const LOCK_SCHEMA = `CREATE TABLE IF NOT EXISTS writer_lock (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  since TEXT NOT NULL
)`;

export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

/** Whether a process of this host is alive (EPERM: alive, owned by someone else). */
export function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When this process started (ms since the epoch). */
const PROCESS_START_MS = Date.now() - process.uptime() * 1000;

/**
 * Whether the recorded holder still holds the lock: one on another host (cannot be checked), this
 * process (our pid, taken since we started), or a live pid here. Our own pid with a lock older than
 * this process is an earlier process that had the same pid (a restarted container) and is dead.
 */
export function holderAlive(h: LockHolder, me: LockHolder, startedMs = PROCESS_START_MS): boolean {
  if (h.host !== me.host) return true;
  if (h.pid === me.pid) return !(Date.parse(h.since) < Math.floor(startedMs) - 1);
  return pidAlive(h.pid);
}

export function currentHolder(): LockHolder {
  return { pid: process.pid, host: hostname(), since: new Date().toISOString() };
}

/**
 * Take the writer lock of an open read-write connection. Returns undefined when taken (fresh, or
 * taken over from a dead holder), else the live holder, leaving the lock as it was.
 */
export function takeWriterLock(db: Database.Database, me: LockHolder = currentHolder()): LockHolder | undefined {
  db.exec(LOCK_SCHEMA);
  const take = db.transaction((): LockHolder | undefined => {
    const row = db.prepare('SELECT pid, host, since FROM writer_lock WHERE id = 1').get() as LockHolder | undefined;
    if (row && holderAlive(row, me)) return row;
    db.prepare('INSERT OR REPLACE INTO writer_lock (id, pid, host, since) VALUES (1, ?, ?, ?)').run(me.pid, me.host, me.since);
    return undefined;
  });
  return take.immediate();
}

/** Give the lock back, when this process holds it. */
export function releaseWriterLock(db: Database.Database, me: LockHolder): void {
  db.prepare('DELETE FROM writer_lock WHERE id = 1 AND pid = ? AND host = ?').run(me.pid, me.host);
}
