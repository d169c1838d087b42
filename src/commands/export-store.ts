/**
 * `samegame export`: the trials of a store to a file (written whole or not at all, by the
 * output-path rule of core/out-dir.ts) or to standard output.
 */
import { exportTrials, type ExportFormat } from './export.js';
import { TrialStore } from '../live/store/store.js';
import { UserError } from '../core/errors.js';
import { withStoreErrors } from '../live/store/integrity.js';
import { runMsg } from '../core/messages/run.js';
import { readStore } from '../sources/store.js';
import { checkOutFile } from '../core/out-dir.js';
import { streamWriter, writeStreamAtomic } from '../core/atomic.js';
import { silentLogger, type Logger } from '../core/logger.js';

export interface ExportOptions {
  readonly format: ExportFormat;
  /** Output file; standard output when absent. */
  readonly out?: string;
  readonly run?: number;
  readonly verifyStore?: boolean;
  readonly logger?: Logger;
}

async function exportTo(store: TrialStore, storePath: string, o: ExportOptions): Promise<void> {
  const ids = store.runs().map((r) => r.id);
  if (o.run !== undefined && !ids.includes(o.run)) throw new UserError(runMsg.noSuchRun(storePath, o.run, ids));
  if (o.out === undefined) {
    // A reader that stops early (| head) closes the pipe: that ends the export, quietly.
    await exportTrials(store, o.format, streamWriter(process.stdout), o.run).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
    });
    return;
  }
  const n = await writeStreamAtomic(o.out, (write) => exportTrials(store, o.format, write, o.run));
  (o.logger ?? silentLogger).info(runMsg.exported(n, o.out));
}

/** Export the trials of the store at `storePath`; the output path is checked before the store is opened. */
export async function exportStore(storePath: string, o: ExportOptions): Promise<void> {
  await withStoreErrors(storePath, async () => {
    if (o.out !== undefined) checkOutFile('--out', o.out);
    const store = readStore(storePath, () => TrialStore.openExisting(storePath, { verify: o.verifyStore }));
    try {
      await readStore(storePath, () => exportTo(store, storePath, o));
    } finally {
      store.close();
    }
  });
}
