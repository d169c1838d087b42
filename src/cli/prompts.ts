import type { Command } from 'commander';
import { prompts, type PromptsOptions } from '../commands/prompts.js';
import { terminalLogger } from './options.js';

export function registerPrompts(program: Command): void {
  program
    .command('prompts')
    .description('Print (or write under --out) the rendered prompts of a design, one per model × game × framing')
    .argument('<design>', 'design YAML')
    .option('--out <dir>', 'write one file per prompt, <dir>/<model>/<game>/<framing>.txt, instead of printing')
    .option('--model <id>', 'only this model')
    .option('--game <id>', 'only this game')
    .option('--framing <id>', 'only this framing')
    .action((file: string, o: PromptsOptions) => prompts(file, o, terminalLogger()));
}
