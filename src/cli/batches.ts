import type { Command } from 'commander';
import { batchMsg } from '../core/messages/batch.js';
import { CHUNK_COLUMNS, cancelOpen, chunkRows, formatTable } from '../live/batch/list.js';
import { DEFAULT_TIMEOUT_MS } from '../live/providers/registry.js';
import { TrialStore } from '../live/store/store.js';
import { withStoreErrors } from '../live/store/integrity.js';
import { terminalLogger } from './options.js';

export function registerBatches(program: Command): void {
  program
    .command('batches')
    .description('List the batch chunks of a trial store (OpenAI, Anthropic, Gemini: state, vendor status, requests, batch id, cost so far); --cancel cancels the open ones')
    .argument('<store>', 'trial store written by `samegame run --batch`')
    .option('--cancel', 'ask each vendor\'s API to cancel every open batch (the next `run --batch` collects what they answered)')
    .option('--base-url <url>', 'the server of the batches, when it is not the one the design names')
    .action((file: string, o: { cancel?: boolean; baseUrl?: string }) => withStoreErrors(file, async () => {
      const store = TrialStore.openExisting(file);
      try {
        if (o.cancel) {
          const n = await cancelOpen(store, { env: process.env, timeoutMs: DEFAULT_TIMEOUT_MS, baseUrl: o.baseUrl });
          terminalLogger().info(batchMsg.cancelled(n));
        }
        const rows = chunkRows(store, file);
        if (rows.length === 0) { terminalLogger().info(batchMsg.noChunks(file)); return; }
        process.stdout.write(`${formatTable(CHUNK_COLUMNS, rows)}\n`);
      } finally {
        store.close();
      }
    }));
}
