import type { Command } from 'commander';
import { init, INIT_KINDS, type InitKind } from '../commands/init.js';
import { terminalLogger } from './options.js';

export function registerInit(program: Command): void {
  program
    .command('init')
    .description(('Write NAME.yaml: a commented design with two template framings that runs offline as written (a one-shot design also ' +
      'NAME.plan.yaml: a starter preregistration plan for samegame preregister)'))
    .argument('<name>', 'the design name (the file NAME.yaml, the store runs/NAME.sqlite)')
    .option('--kind <kind>', `one of ${INIT_KINDS.join(', ')}`, 'one-shot')
    .action((name: string, o: { kind: InitKind }) => {
      init({ name, kind: o.kind, logger: terminalLogger() });
    });
}
