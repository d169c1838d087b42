/**
 * An existing store opened where a run looks at what it already holds: the dry runs of `run` (the
 * trials stored, those in open batch chunks, a repeated run's moves) and `batches` (a store's
 * chunks, cancelled on request), and under sources/open-run.ts's withStore the readers of a run.
 * The one opener of an existing store: read-only (TrialStore.openExisting, the full
 * integrity check on request), every failure while the store is used turned into the store's one
 * line (storeGuard), and the store closed when the use is done, a promise included.
 */
import { existsSync } from 'node:fs';
import { storeGuard, type SqliteFailure } from './integrity.js';
import { TrialStore } from './store.js';

export interface ExistingStoreOpening {
  /** The full integrity_check instead of the quick one. */
  readonly verify?: boolean;
  /** How a SQLite failure while the store is used is said (storeError): 'unreadable' unless given. */
  readonly sqlite?: SqliteFailure;
}

/** Use the existing store at `path` (absent: refused in one line), read-only, and close it after. */
export function useExistingStore<T>(path: string, o: ExistingStoreOpening, use: (store: TrialStore) => T): T {
  const store = TrialStore.openExisting(path, { verify: o.verify });
  let out: T;
  try {
    out = storeGuard(path, () => use(store), o.sqlite);
  } catch (e) {
    store.close();
    throw e;
  }
  if (out instanceof Promise) return out.finally(() => store.close()) as T;
  store.close();
  return out;
}

/** As useExistingStore when a store is at `path`; else `use` is given no store (a first run has none yet). */
export function useStoreIfPresent<T>(path: string, o: ExistingStoreOpening, use: (store: TrialStore | undefined) => T): T {
  return existsSync(path) ? useExistingStore(path, o, use) : use(undefined);
}
