/** `samegame batches STORE`: the batch chunks of a trial store as a table; --cancel cancels the open ones first. */
import type { Logger } from '../core/logger.js';
import { writeStdout } from '../core/stdout.js';
import { CHUNK_COLUMNS, cancelOpen, chunkRows, formatTable } from '../live/batch/list.js';
import { DEFAULT_TIMEOUT_MS } from '../live/providers/registry.js';
import { existingStore } from '../live/store/open.js';
import { storeGuard } from '../live/store/integrity.js';
import { commandsMsg } from './messages.js';

export interface BatchesOptions { readonly cancel?: boolean; readonly baseUrl?: string }

export async function batches(file: string, o: BatchesOptions, logger: Logger): Promise<void> {
  await storeGuard(file, async (store) => {
    if (o.cancel) {
      const n = await cancelOpen(store, { env: process.env, timeoutMs: DEFAULT_TIMEOUT_MS, baseUrl: o.baseUrl });
      logger.info(commandsMsg.cancelled(n));
    }
    const rows = chunkRows(store, file);
    if (rows.length === 0) { logger.info(commandsMsg.noChunks(file)); return; }
    writeStdout(`${formatTable(CHUNK_COLUMNS, rows)}\n`);
  }, existingStore(file, {}));
}
