import type { Command } from 'commander';
import { join } from 'node:path';
import { writeFilesAtomic } from '../core/atomic.js';
import { checkOutDir } from '../core/out-dir.js';
import { designWarnings, loadDesign } from '../live/design/design.js';
import { MAX_ROUNDS } from '../live/design/play-schema.js';
import { reviewPrompts } from '../live/prompts/review.js';
import { loadPlugins } from '../live/providers/plugins.js';
import { UserError } from '../core/errors.js';
import { liveMsg } from '../core/messages/live.js';
import { parseIntFlag, terminalLogger } from './options.js';

export function registerPrompts(program: Command): void {
  program
    .command('prompts')
    .description('Print (or write under --out) the rendered prompts of a design, one per model × game × framing')
    .argument('<design>', 'design YAML')
    .option('--out <dir>', 'write one file per prompt, <dir>/<model>/<game>/<framing>.txt, instead of printing')
    .option('--model <id>', 'only this model')
    .option('--game <id>', 'only this game')
    .option('--framing <id>', 'only this framing')
    .option('--round <n>', 'a repeated design: its round N, after an example history (rounds cycle CC, CD, DC, DD)', parseIntFlag('--round', 1, MAX_ROUNDS))
    .action(async (file: string, o: { out?: string; model?: string; game?: string; framing?: string; round?: number }) => {
      if (o.out !== undefined) checkOutDir('--out', o.out);
      const design = loadDesign(file);
      for (const w of designWarnings(design)) terminalLogger().warn(w);
      await loadPlugins(design.models, file); // a plug-in module is checked as a run would
      const prompts = reviewPrompts(design, o);
      if (o.out === undefined) {
        process.stdout.write(prompts.map((p) => p.text).join('\n'));
        return;
      }
      const dir = o.out;
      try {
        writeFilesAtomic(prompts.map((p) => ({ path: join(dir, p.file), content: p.text })));
      } catch (e) {
        if (e instanceof UserError) throw e;
        throw new UserError(liveMsg.cannotWrite(dir, (e as NodeJS.ErrnoException).code ?? String(e)));
      }
      terminalLogger().info(liveMsg.wrotePrompts(prompts.length, dir));
    });
}
