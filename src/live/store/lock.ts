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
 * A holder is stale when it ran on this host and its process is no longer alive (a killed run); a
 * holder on another host cannot be checked, so it is refused (SQLite over a network file system
 * is unsafe for concurrent writers in any case). Read-only commands never look at the lock.
 *
 * Alive means more than `kill(pid, 0)` succeeding: a killed process stays a zombie (state Z in
 * /proc/PID/stat) until its parent reaps it — forever where nothing reaps — and is dead for the
 * lock; and a pid is reused, so the holder's start time (field 22 of /proc/PID/stat, clock ticks
 * since boot) is recorded with the lock and must match. Where there is no /proc (macOS) the pid alone is judged.
 */
import type Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export const LOCK_SCHEMA = `CREATE TABLE IF NOT EXISTS writer_lock (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  since TEXT NOT NULL,
  start TEXT
)`;

export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
  /** The holder's process start time (field 22 of /proc/PID/stat), null where unknown. */
  readonly start?: string | null;
}

/** State (field 3) and start time (field 22) of a process from /proc/PID/stat; undefined when unreadable. */
export function procStat(pid: number): { state: string; start: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 is the command in parentheses and may itself hold spaces and parentheses.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return rest.length > 19 ? { state: rest[0], start: rest[19] } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a process of this host is alive (EPERM: alive, owned by someone else): not a zombie
 * (Z) or dead (X), and, when `start` is given and /proc tells, the process that started then.
 */
export function pidAlive(pid: number, start?: string | null): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const st = procStat(pid);
  if (st === undefined) return true;
  if (st.state === 'Z' || st.state === 'X') return false;
  return start === undefined || start === null || st.start === start;
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
  if (h.pid === me.pid) {
    if (h.start != null && me.start != null) return h.start === me.start;
    return !(Date.parse(h.since) < Math.floor(startedMs) - 1);
  }
  return pidAlive(h.pid, h.start);
}

export function currentHolder(): LockHolder {
  return { pid: process.pid, host: hostname(), since: new Date().toISOString(), start: procStat(process.pid)?.start ?? null };
}

/** A store whose lock table predates the start column gets it (an older samegame reads and writes the table as before). */
function addStartColumn(db: Database.Database): void {
  const cols = db.prepare("SELECT name FROM pragma_table_info('writer_lock')").pluck().all() as string[];
  if (!cols.includes('start')) db.exec('ALTER TABLE writer_lock ADD COLUMN start TEXT');
}

/**
 * Take the writer lock of an open read-write connection. Returns undefined when taken (fresh, or
 * taken over from a dead holder), else the live holder, leaving the lock as it was.
 */
export function takeWriterLock(db: Database.Database, me: LockHolder = currentHolder()): LockHolder | undefined {
  db.exec(LOCK_SCHEMA);
  const take = db.transaction((): LockHolder | undefined => {
    addStartColumn(db);
    const row = db.prepare('SELECT pid, host, since, start FROM writer_lock WHERE id = 1').get() as LockHolder | undefined;
    if (row && holderAlive(row, me)) return { pid: row.pid, host: row.host, since: row.since };
    db.prepare('INSERT OR REPLACE INTO writer_lock (id, pid, host, since, start) VALUES (1, ?, ?, ?, ?)').run(me.pid, me.host, me.since, me.start ?? null);
    return undefined;
  });
  return take.immediate();
}

/** Give the lock back, when this process holds it. */
export function releaseWriterLock(db: Database.Database, me: LockHolder): void {
  db.prepare('DELETE FROM writer_lock WHERE id = 1 AND pid = ? AND host = ?').run(me.pid, me.host);
}
