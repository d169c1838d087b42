import type { Command } from 'commander';
import { preregister } from '../commands/preregister.js';
import { terminalLogger } from './options.js';

export function registerPreregister(program: Command): void {
  program
    .command('preregister')
    .description(('Seal a plan (design, analysis settings, hypotheses) into a trial store before its first trial: its canonical JSON, SHA-256 and ' +
      'time; run then refuses another design, and analyze adjudicates each hypothesis'))
    .argument('<plan>', 'the plan (YAML; schema data/plans/plan.schema.json; samegame init writes a starter)')
    .option('--store <file>', 'the trial store (default: the design\'s, runs/NAME.sqlite)')
    .action((plan: string, o: { store?: string }) => {
      preregister({ plan, store: o.store, logger: terminalLogger() });
    });
}
