import type { Command } from 'commander';
import { initCommand, INIT_KINDS, type InitKind } from '../commands/init.js';
import { initMsg } from '../core/messages/init.js';
import { terminalLogger } from './options.js';

export function registerInit(program: Command): void {
  program
    .command('init')
    .description('Write NAME.yaml: a commented design with two template framings that runs offline as written')
    .argument('<name>', 'the design name (the file NAME.yaml, the store runs/NAME.sqlite)')
    .option('--kind <kind>', `one of ${INIT_KINDS.join(', ')}`, 'one-shot')
    .action((name: string, o: { kind: InitKind }) => {
      const file = initCommand(name, o.kind);
      terminalLogger().info(initMsg.wrote(file, name));
    });
}
