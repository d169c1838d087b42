import { InvalidArgumentError, type Command } from 'commander';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { exportTrials, type ExportFormat } from '../commands/export.js';
import { TrialStore } from '../live/store/store.js';
import { UserError } from '../core/errors.js';
import { withStoreErrors } from '../live/store/integrity.js';
import { runMsg } from '../core/messages/run.js';
import { parseIntFlag, terminalLogger } from './options.js';
import { readStore, readStoreAsync } from '../sources/store.js';
import { checkOutFile } from '../core/out-dir.js';

const parseFormat = (v: string): ExportFormat => {
  if (v !== 'jsonl' && v !== 'csv') throw new InvalidArgumentError(runMsg.badFormat(v));
  return v;
};

/** A writer that waits for the stream to drain, so a large export never piles up in memory. */
function writerFor(s: NodeJS.WritableStream): (chunk: string) => Promise<void> {
  return (chunk) => new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    s.once('error', onError);
    const ok = s.write(chunk);
    const done = () => { s.off('error', onError); resolve(); };
    if (ok) done(); else s.once('drain', done);
  });
}

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('Export the trials of a store, one record per trial (CSV: analysis columns; JSONL: every stored field)')
    .argument('<store>', 'trial store written by samegame run')
    .requiredOption('--format <fmt>', 'jsonl or csv', parseFormat)
    .option('--out <file>', 'output file (written whole or not at all); standard output when absent')
    .option('--run <id>', 'only this run of the store', parseIntFlag('--run', 1))
    .option('--verify-store', 'check the whole store (integrity_check) before reading it; a quick check is always made')
    .option('-q, --quiet', 'no summary line')
    .action((storePath: string, o: { format: ExportFormat; out?: string; run?: number; quiet?: boolean; verifyStore?: boolean }) => withStoreErrors(storePath, async () => {
      const logger = terminalLogger(o.quiet);
      if (o.out !== undefined) checkOutFile('--out', o.out);
      const store = readStore(storePath, () => TrialStore.openExisting(storePath, { verify: o.verifyStore }));
      try {
        await readStoreAsync(storePath, () => exportTo(store, storePath, o, logger));
      } finally {
        store.close();
      }
    }));
}

async function exportTo(store: TrialStore, storePath: string, o: { format: ExportFormat; out?: string; run?: number }, logger: ReturnType<typeof terminalLogger>): Promise<void> {
  const ids = store.runs().map((r) => r.id);
  if (o.run !== undefined && !ids.includes(o.run)) throw new UserError(runMsg.noSuchRun(storePath, o.run, ids));
  if (o.out === undefined) {
    // A reader that stops early (| head) closes the pipe: that ends the export, quietly.
    await exportTrials(store, o.format, writerFor(process.stdout), o.run).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
    });
    return;
  }
  const tmp = `${o.out}.tmp-${process.pid}`;
  const s = createWriteStream(tmp);
  try {
    const n = await exportTrials(store, o.format, writerFor(s), o.run);
    await new Promise<void>((resolve, reject) => { s.once('error', reject); s.end(() => resolve()); });
    renameSync(tmp, o.out);
    logger.info(runMsg.exported(n, o.out));
  } catch (e) {
    s.destroy();
    rmSync(tmp, { force: true });
    throw e;
  }
}
