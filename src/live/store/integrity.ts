/**
 * A store is checked when it is opened: PRAGMA quick_check (every page and b-tree structure,
 * O(N), without the index-to-table cross-check) always, the full integrity_check on request
 * (--verify-store). A damaged store is refused with one line naming it, before anything is read
 * from it or written to it. Every other failure of a store — not a database, locked, I/O, a row or
 * a stored design samegame could not have written — is turned into one line by storeError, the one
 * mapper of store failures, so no SqliteError reaches the user as a stack trace.
 */
import type Database from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { storeMsg } from './messages.js';

/** A row (or the stored design) of a store that samegame could not have written: the store is damaged. */
export class StoreFault extends Error {}
/** A level of a store that no reader takes (a reserved name, a name over the length limit): refused, naming it. */
export class StoreRefusal extends Error {}

/** Run quick_check (or integrity_check when `full`); throw the one-line error when it finds damage. */
export function checkIntegrity(db: Database.Database, path: string, full = false): void {
  const pragma = full ? 'integrity_check' : 'quick_check';
  const rows = db.pragma(`${pragma}(20)`, { simple: false }) as Record<string, string>[];
  const lines = rows.map((r) => String(Object.values(r)[0]));
  if (lines.length === 1 && lines[0] === 'ok') return;
  throw new UserError(storeMsg.integrityCheckFailed(path, pragma, lines.length, lines[0] ?? 'no result'));
}

/** Whether an error came from SQLite (better-sqlite3 throws SqliteError with an SQLITE_* code). */
export function isSqliteError(e: unknown): e is Error & { code: string } {
  const code = (e as { code?: unknown } | null)?.code;
  return e instanceof Error && (e.name === 'SqliteError' || (typeof code === 'string' && code.startsWith('SQLITE_')));
}

/**
 * How a SQLite failure is said: `damaged` while a reader reads the store's rows (analyze, export:
 * "the trial store is damaged or not one samegame wrote"), `unreadable` around a run or a command
 * that opens the store ("cannot open the trial store"), `open` while the file itself is opened (any
 * failure is the store unreadable, a WAL store without its files said as such: openError).
 */
export type SqliteFailure = 'damaged' | 'unreadable' | 'open';

/**
 * The one-line user error for a failure of the store at `path`; any other error unchanged. A
 * refused level names itself; a row samegame could not have written is the store damaged, as is,
 * while reading (`damaged`), JSON that does not parse; a SQLite failure is said as `sqlite` says.
 */
function storeError(path: string, e: unknown, sqlite: SqliteFailure = 'unreadable'): unknown {
  if (e instanceof UserError) return e;
  if (sqlite === 'open') return openError(path, e);
  if (e instanceof StoreRefusal) return new UserError(storeMsg.storeRefused(path, e.message));
  const damaged = (detail: string) => new UserError(storeMsg.storeDamaged(path, detail.split('\n')[0]));
  if (e instanceof StoreFault) return damaged(e.message);
  if (sqlite === 'damaged' && (e instanceof SyntaxError || (e instanceof Error && e.name === 'SqliteError'))) return damaged(e.message);
  if (sqlite === 'unreadable' && isSqliteError(e)) return new UserError(storeMsg.storeUnreadable(path, `${e.code}: ${e.message}`));
  return e;
}

/** What a guarded use opens first and closes when done (a promise: once it settles): the store it reads (live/store/open.ts). */
export interface GuardedOpening<S extends { close(): void } | undefined> {
  readonly open: () => S;
  /** How a SQLite failure while the store is used is said (storeError): 'unreadable' unless given. */
  readonly sqlite?: SqliteFailure;
}

/**
 * Run `fn` on the store at `path` — synchronous, or a promise (export streams its rows) — with
 * its failures turned into the store's one line (storeError). Given an opening, the store is
 * opened first, handed to `fn` and closed when `fn` is done, a promise included.
 */
export function storeGuard<T>(path: string, fn: () => T, sqlite?: SqliteFailure): T;
export function storeGuard<S extends { close(): void } | undefined, T>(path: string, fn: (store: S) => T, opening: GuardedOpening<S>): T;
export function storeGuard<S extends { close(): void } | undefined, T>(path: string, fn: (store: S) => T,
  how: SqliteFailure | GuardedOpening<S> = 'unreadable'): T {
  const sqlite = typeof how === 'string' ? how : how.sqlite ?? 'unreadable';
  const store = typeof how === 'string' ? undefined : how.open();
  let out: T;
  try {
    out = fn(store as S);
  } catch (e) {
    store?.close();
    throw storeError(path, e, sqlite);
  }
  if (out instanceof Promise) return out.catch((e: unknown) => { throw storeError(path, e, sqlite); }).finally(() => store?.close()) as T;
  store?.close();
  return out;
}

/**
 * Why a store could not be opened for reading, as one line. A store left in WAL mode without its
 * -wal/-shm files (written by an older version) cannot be read by a user who may not create them.
 */
function openError(path: string, e: unknown): UserError {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^SQLITE_(READONLY|CANTOPEN)/.test(code)) {
    try {
      const head = Buffer.alloc(20);
      const fd = openSync(path, 'r');
      try { readSync(fd, head, 0, 20, 0); } finally { closeSync(fd); }
      if (head[18] === 2) return new UserError(storeMsg.storeWalReadOnly(path));
    } catch { /* fall through to the plain message */ }
  }
  return new UserError(storeMsg.storeUnreadable(path, e instanceof Error ? e.message : String(e)));
}
