import type { Command } from 'commander';
import { prompts, type PromptsOptions } from '../commands/prompts.js';
import { parseIntFlag, terminalLogger } from './options.js';
import { MAX_PROMPT_ROUND } from '../commands/prompts.js';

export function registerPrompts(program: Command): void {
  program
    .command('prompts')
    .description('Print (or write under --out) the rendered prompts of a design, one per model × game × framing')
    .argument('<design>', 'design YAML')
    .option('--out <dir>', 'write one file per prompt, <dir>/<model>/<game>/<framing>.txt, instead of printing')
    .option('--model <id>', 'only this model')
    .option('--game <id>', 'only this game')
    .option('--framing <id>', 'only this framing')
    .option('--round <n>', 'a repeated design: its round N, after an example history (rounds cycle CC, CD, DC, DD)', parseIntFlag('--round', 1,
      MAX_PROMPT_ROUND))
    .action((file: string, o: PromptsOptions) => prompts(file, o, terminalLogger()));
}
