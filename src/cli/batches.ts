import type { Command } from 'commander';
import type { BatchesOptions } from '../commands/batches.js';
import { terminalLogger } from './options.js';

export function registerBatches(program: Command): void {
  program
    .command('batches')
    .description(('List the batch chunks of a trial store (OpenAI, Anthropic, Gemini: state, vendor status, requests, batch id, cost so far); --cancel ' +
      'cancels the open ones'))
    .argument('<store>', 'trial store written by `samegame run --batch`')
    .option('--cancel', 'ask each vendor\'s API to cancel every open batch (the next `run --batch` collects what they answered)')
    .option('--base-url <url>', 'the server of the batches, when it is not the one the design names')
    .action(async (file: string, o: BatchesOptions) => (await import('../commands/batches.js')).batches(file, o, terminalLogger()));
}
