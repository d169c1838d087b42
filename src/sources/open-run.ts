/**
 * A trial store opened for reading in one place: `storeReader` opens it for the store's one guard
 * (`storeGuard(path, read, storeReader(path))`: read-only, the integrity check asked for, every read
 * guarded — a damaged store ends in one line naming it — and closed when the reader is done, a
 * promise included); `openRun` reads one run of it once — the run
 * chosen (by id, else the latest), the kind decided once (runKind), the cells as the analyses read
 * them, and its provenance (sources/origin.ts). The commands read stores through these.
 */
import { sha256File } from '../core/hash.js';
import type { Origin } from '../core/provenance.js';
import type { RunInfo, TrialStore } from '../live/store/store.js';
import { existingStore } from '../live/store/open.js';
import { storeGuard, type GuardedOpening } from '../live/store/integrity.js';
import { chooseRun, runKind, storeTable, type CellOrder, type RunKind, type StoreTable } from './store.js';
import { storeOrigin } from './origin.js';
import { probesOf, repeatedDecisionsOf } from './repeated-store.js';
import type { RepeatedDecisions } from '../core/decisions.js';
import type { ScoredProbe } from '../live/probes/comprehension.js';
import { UserError } from '../core/errors.js';
import { sourcesMsg } from './messages.js';

export interface StoreOpening {
  /** The full integrity_check instead of the quick one. */
  readonly verify?: boolean;
}

/**
 * The store at `path` opened for reading by storeGuard, read-only, and closed after (after the
 * promise settles when the read returns one); a damaged store — rows or a design with bad JSON or
 * impossible values, tables lacking columns, a file SQLite cannot read — ends with one line naming the store.
 */
export function storeReader(path: string, o: StoreOpening = {}): GuardedOpening<TrialStore> {
  return existingStore(path, { verify: o.verify, sqlite: 'damaged' });
}

/** One run of a store as read once: its info, its kind, its cells (not for a repeated run) and its provenance. */
export interface OpenedRun {
  readonly path: string;
  readonly run: RunInfo;
  readonly kind: RunKind;
  /** The run's cells (one-shot and context-enrichment runs; a repeated run's are its decisions, read by repeated-store.ts). */
  readonly source?: StoreTable;
  readonly origin: Origin;
  /** A repeated run's decisions and answered comprehension probes, read with the rest when asked (`repeated: true`). */
  readonly repeated?: { readonly decisions: RepeatedDecisions; readonly probes: readonly ScoredProbe[] };
}

/**
 * Read a run of the store once: the run given by id (else the latest), its kind, its cells in `order` when not repeated, its origin;
 * with `repeated`, a repeated run's decisions and probes too (the store opened once for all of it).
 */
export function openRun(path: string, o: StoreOpening & { readonly runId?: number; readonly order?: (run: RunInfo) => CellOrder | undefined;
  readonly repeated?: boolean }): OpenedRun {
  return storeGuard(path, (store) => {
    const run = chooseRun(store, path, o.runId);
    let source: StoreTable | undefined;
    const cells = () => (source ??= storeTable(store, run, o.order?.(run)));
    const kind = runKind(run, () => cells().extraFactors);
    const decisions = kind === 'repeated' && o.repeated ? repeatedDecisionsOf(store, path, run) : undefined;
    // a repeated run's decisions carry the store's origin already (the file hashed once)
    const origin = decisions?.origin ?? storeOrigin(path, sha256File(path), run, store);
    return { path, run, kind, ...(kind === 'repeated' ? {} : { source: cells() }), origin,
      ...(decisions ? { repeated: { decisions, probes: probesOf(store, run) } } : {}) };
  }, storeReader(path, o));
}

/** The cells of a run the one-shot tables read; a repeated game's run is refused in one line (its rounds and seats would be pooled). */
export function oneShotCells(r: OpenedRun): StoreTable {
  if (r.source === undefined) throw new UserError(sourcesMsg.repeatedRun(r.path, r.run.id));
  return r.source;
}
