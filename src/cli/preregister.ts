import type { Command } from 'commander';
import { terminalLogger } from './options.js';

export function registerPreregister(program: Command): void {
  program
    .command('preregister')
    .description(('Seal a plan (design, analysis settings, hypotheses) into a trial store before its first trial: its canonical JSON, SHA-256 and ' +
      'time; run then refuses another design, and analyze adjudicates each hypothesis'))
    .argument('<plan>', 'the plan (YAML; schema data/plans/plan.schema.json; samegame init writes a starter)')
    .option('--store <file>', 'the trial store (default: the design\'s, runs/NAME.sqlite)')
    .action(async (plan: string, o: { store?: string }) => {
      const { preregister } = await import('../commands/preregister.js');
      preregister({ plan, store: o.store, logger: terminalLogger() });
    });
}
