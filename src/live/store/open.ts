/**
 * An existing store opened where a run looks at what it already holds: the dry runs of `run` (the
 * trials stored, those in open batch chunks, a repeated run's moves) and `batches` (a store's
 * chunks, cancelled on request), and through sources/open-run.ts's storeReader the readers of a run.
 * The one opener of an existing store: read-only (TrialStore.openExisting, the full
 * integrity check on request), handed to the store's one guard (storeGuard: every failure while
 * the store is used turned into the store's one line, and the store closed when the use is done,
 * a promise included).
 */
import { existsSync } from 'node:fs';
import type { GuardedOpening, SqliteFailure } from './integrity.js';
import { TrialStore } from './store.js';

export interface ExistingStoreOpening {
  /** The full integrity_check instead of the quick one. */
  readonly verify?: boolean;
  /** How a SQLite failure while the store is used is said (storeError): 'unreadable' unless given. */
  readonly sqlite?: SqliteFailure;
}

/** The existing store at `path` (absent: refused in one line), opened read-only for storeGuard, which closes it after. */
export function existingStore(path: string, o: ExistingStoreOpening): GuardedOpening<TrialStore> {
  return { open: () => TrialStore.openExisting(path, { verify: o.verify }), ...(o.sqlite ? { sqlite: o.sqlite } : {}) };
}

/** As existingStore when a store is at `path`; else no store (a first run has none yet). */
export function storeIfPresent(path: string, o: ExistingStoreOpening): GuardedOpening<TrialStore | undefined> {
  return existsSync(path) ? existingStore(path, o) : { open: () => undefined };
}
