/**
 * `samegame export`: the trials of a store to a file (written whole or not at all, by the
 * output-path rule of core/out-dir.ts) or to standard output.
 */
import { writeTrials, type ExportFormat } from './export.js';
import { TrialStore } from '../live/store/store.js';
import { UserError } from '../core/errors.js';
import { withStoreErrors } from '../live/store/integrity.js';
import { readStore } from '../sources/store.js';
import { checkOutFile } from '../core/out-dir.js';
import { streamWriter, writeStreamAtomic } from '../core/atomic.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { commandsMsg } from './messages.js';

export interface ExportOptions {
  /** The trial store written by `samegame run`. */
  readonly store: string;
  readonly format: ExportFormat;
  /** Output file; standard output when absent. */
  readonly out?: string;
  /** Only this run of the store. */
  readonly runId?: number;
  readonly verifyStore?: boolean;
  readonly logger?: Logger;
}

/** How many trials were exported, and where (none: standard output). */
export interface ExportResult {
  readonly trials: number;
  readonly out?: string;
}

async function exportTo(store: TrialStore, o: ExportOptions): Promise<ExportResult> {
  const ids = store.runs().map((r) => r.id);
  if (o.runId !== undefined && !ids.includes(o.runId)) throw new UserError(commandsMsg.noSuchRun(o.store, o.runId, ids));
  if (o.out === undefined) {
    let n = 0;
    // A reader that stops early (| head) closes the pipe: that ends the export, quietly.
    await writeTrials(store, o.format, streamWriter(process.stdout), o.runId).then((k) => { n = k; }, (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
    });
    return { trials: n };
  }
  const out = o.out;
  const n = await writeStreamAtomic(out, (write) => writeTrials(store, o.format, write, o.runId));
  (o.logger ?? silentLogger).info(commandsMsg.exported(n, out));
  return { trials: n, out };
}

/** `samegame export`: the trials of the store, one record per trial; the output path is checked before the store is opened. */
export function exportTrials(o: ExportOptions): Promise<ExportResult> {
  return withStoreErrors(o.store, async () => {
    if (o.out !== undefined) checkOutFile('--out', o.out);
    const store = readStore(o.store, () => TrialStore.openExisting(o.store, { verify: o.verifyStore }));
    try {
      return await readStore(o.store, () => exportTo(store, o));
    } finally {
      store.close();
    }
  });
}
