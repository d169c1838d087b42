/**
 * `samegame export`: the trials of a store to a file (written whole or not at all, by the
 * output-path rule of core/out-dir.ts), to a stream, or to standard output when asked for ('-').
 */
import { writeTrials, type ExportFormat } from './export.js';
import { TrialStore } from '../live/store/store.js';
import { UserError } from '../core/errors.js';
import { withStoreErrors } from '../live/store/integrity.js';
import { readStore } from '../sources/store.js';
import { checkOutFile } from '../core/out-dir.js';
import { streamWriter, writeStreamAtomic } from '../core/atomic.js';
import { stdoutError } from '../core/stdout.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { commandsMsg } from './messages.js';

export interface ExportOptions {
  /** The trial store written by `samegame run`. */
  readonly store: string;
  readonly format: ExportFormat;
  /**
   * Where the trials go, always said: a file (written whole or not at all), '-' for standard output
   * (the CLI's default), or a stream (written to, not ended).
   */
  readonly out: string | NodeJS.WritableStream;
  /** Only this run of the store. */
  readonly runId?: number;
  readonly verifyStore?: boolean;
  readonly logger?: Logger;
}

/** How many trials were exported, and the file written (none for standard output or a stream). */
export interface ExportResult {
  readonly trials: number;
  readonly out?: string;
}

/** `out` for standard output. */
export const STDOUT = '-';

async function exportTo(store: TrialStore, o: ExportOptions): Promise<ExportResult> {
  const ids = store.runs().map((r) => r.id);
  if (o.runId !== undefined && !ids.includes(o.runId)) throw new UserError(commandsMsg.noSuchRun(o.store, o.runId, ids));
  if (typeof o.out !== 'string' || o.out === STDOUT) {
    let n = 0;
    // A reader that stops early (| head) closes the pipe: that ends the export, quietly.
    await writeTrials(store, o.format, streamWriter(o.out === STDOUT ? process.stdout : o.out), o.runId).then((k) => { n = k; }, (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw stdoutError(e);
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
  // The library writes nowhere by default: standard output is asked for ('-'), as the CLI does.
  if ((o.out as ExportOptions['out'] | undefined) === undefined) return Promise.reject(new UserError(commandsMsg.exportNeedsOut()));
  return withStoreErrors(o.store, async () => {
    if (typeof o.out === 'string' && o.out !== STDOUT) checkOutFile('--out', o.out);
    const store = readStore(o.store, () => TrialStore.openExisting(o.store, { verify: o.verifyStore }));
    try {
      return await readStore(o.store, () => exportTo(store, o));
    } finally {
      store.close();
    }
  });
}
