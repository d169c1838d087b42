import { InvalidArgumentError, type Command } from 'commander';
import type { ExportFormat } from '../commands/export.js';
import { parseIntFlag, terminalLogger } from './options.js';
import { cliMsg } from './messages.js';

const parseFormat = (v: string): ExportFormat => {
  if (v !== 'jsonl' && v !== 'csv' && v !== 'parquet') throw new InvalidArgumentError(cliMsg.badFormat(v));
  return v;
};

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('Export the trials of a store, one record per trial (CSV: analysis columns; JSONL: every stored field)')
    .argument('<store>', 'trial store written by samegame run')
    .requiredOption('--format <fmt>', 'jsonl, csv, or parquet (a folder of Hive-partitioned files: model=…/game=…/framing=…)', parseFormat)
    .option('--out <file>',
      ('output file (written whole or not at all), and beside it <file>.provenance.json: the file\'s SHA-256 (a Parquet folder\'s: of its files), the ' +
        'store, the run, its design hash and order, whether the data are synthetic, the design\'s names and framings, which the read-back restores ' +
        '(reproduce --trials FILE|FOLDER; repeated play: analyze --trials FILE|FOLDER --format data/log-formats/samegame-export.yaml); ' +
        'when the run asked comprehension ' +
        'probes, <name>.probes.<ext> beside it (Parquet: <folder>.probes.parquet), one record per probe; standard output (no sidecar, no probes) ' +
        'when absent or -'))
    .option('--run <id>', 'only this run of the store', parseIntFlag('--run', 1))
    .option('--verify-store', 'check the whole store (integrity_check) before reading it; a quick check is always made')
    .option('-q, --quiet', 'no summary line')
    .action(async (storePath: string, o: { format: ExportFormat; out?: string; run?: number; quiet?: boolean; verifyStore?: boolean }) => {
      const { exportTrials, STDOUT } = await import('../commands/export-store.js');
      await exportTrials({ store: storePath, format: o.format, out: o.out ?? STDOUT, runId: o.run, verifyStore: o.verifyStore,
        logger: terminalLogger(o.quiet) });
    });
}
