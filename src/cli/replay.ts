import type { Command } from 'commander';
import { parseIntFlag, terminalLogger } from './options.js';

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description(('With no key and no network: re-render every stored prompt and request from the stored design (byte for byte), re-read every ' +
      'raw response with today\'s parser, recompute the analysis and compare it with the stored outputs; exit 0 only if all agree'))
    .argument('<store>', 'trial store written by samegame run')
    .option('--capsule <dir>', 'a capsule folder (samegame capsule): check its SHA-256 manifest and compare its outputs/')
    .option('--run <id>', 'run id within the store (default: the sealed run, else the latest)', parseIntFlag('--run', 1))
    .option('-q, --quiet', 'print only the differences')
    .action(async (store: string, o: { capsule?: string; run?: number; quiet?: boolean }) => {
      const { replay } = await import('../commands/replay.js');
      await replay({ store, capsule: o.capsule, runId: o.run, logger: terminalLogger(o.quiet) });
    });
}
