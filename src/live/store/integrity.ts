/**
 * A store is checked when it is opened: PRAGMA quick_check (every page and b-tree structure,
 * O(N), without the index-to-table cross-check) always, the full integrity_check on request
 * (--verify-store). A damaged store is refused with one line naming it, before anything is read
 * from it or written to it. Every other SQLite failure — not a database, locked, I/O — is turned
 * into the same kind of line by storeError, so no SqliteError reaches the user as a stack trace.
 */
import type Database from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { runMsg } from '../../core/messages/run.js';

/** Run quick_check (or integrity_check when `full`); throw the one-line error when it finds damage. */
export function checkIntegrity(db: Database.Database, path: string, full = false): void {
  const pragma = full ? 'integrity_check' : 'quick_check';
  const rows = db.pragma(`${pragma}(20)`, { simple: false }) as Record<string, string>[];
  const lines = rows.map((r) => String(Object.values(r)[0]));
  if (lines.length === 1 && lines[0] === 'ok') return;
  throw new UserError(runMsg.integrityCheckFailed(path, pragma, lines.length, lines[0] ?? 'no result'));
}

/** Whether an error came from SQLite (better-sqlite3 throws SqliteError with an SQLITE_* code). */
export function isSqliteError(e: unknown): e is Error & { code: string } {
  const code = (e as { code?: unknown } | null)?.code;
  return e instanceof Error && (e.name === 'SqliteError' || (typeof code === 'string' && code.startsWith('SQLITE_')));
}

/** The one-line user error for a SQLite failure on the store at `path`; any other error unchanged. */
export function storeError(path: string, e: unknown): unknown {
  if (e instanceof UserError || !isSqliteError(e)) return e;
  return new UserError(runMsg.storeUnreadable(path, `${e.code}: ${e.message}`));
}

/**
 * Why a store could not be opened for reading, as one line. A store left in WAL mode without its
 * -wal/-shm files (written by an older version) cannot be read by a user who may not create them.
 */
export function readOpenError(path: string, e: unknown): UserError {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^SQLITE_(READONLY|CANTOPEN)/.test(code)) {
    try {
      const head = Buffer.alloc(20);
      const fd = openSync(path, 'r');
      try { readSync(fd, head, 0, 20, 0); } finally { closeSync(fd); }
      if (head[18] === 2) return new UserError(runMsg.storeWalReadOnly(path));
    } catch { /* fall through to the plain message */ }
  }
  return new UserError(runMsg.storeUnreadable(path, e instanceof Error ? e.message : String(e)));
}

/** Run `fn`, turning any SQLite failure on the store at `path` into its one-line message. */
export async function withStoreErrors<T>(path: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw storeError(path, e);
  }
}
