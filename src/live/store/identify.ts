/**
 * Is this file a samegame trial store? `run --store` creates its tables in the file it is given,
 * so an unrelated SQLite database (or any other file) is refused before anything is created. A file
 * SQLite cannot open is said by the caller's guard (storeGuard with 'open': the store unreadable).
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { storeMsg } from './messages.js';

/** Throws the one-line error unless `path` is absent, empty, an empty database or a samegame store; SQLite's own failure unchanged. */
export function assertStoreOrNew(path: string): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return; // absent: run creates it (the path itself was checked by checkOutFile)
  }
  if (size === 0) return;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  let tables: string[];
  try {
    tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  } finally {
    db.close();
  }
  if (tables.length === 0) return;
  if (!tables.includes('runs') || !tables.includes('trials')) throw new UserError(storeMsg.notAStore(path));
}
