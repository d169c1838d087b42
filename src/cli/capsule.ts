import type { Command } from 'commander';
import { terminalLogger } from './options.js';

export function registerCapsule(program: Command): void {
  program
    .command('capsule')
    .description(('Write a replay capsule: the store, design, sealed plan, outputs, README and SHA-256 manifest, verified anywhere with ' +
      '`npx samegame replay DIR/store.sqlite --capsule DIR`'))
    .argument('<store>', 'trial store written by samegame run')
    .requiredOption('--out <dir>', 'the capsule folder (new, or empty)')
    .action(async (store: string, o: { out: string }) => {
      const { capsule } = await import('../commands/capsule.js');
      await capsule({ store, out: o.out, logger: terminalLogger() });
    });
}
