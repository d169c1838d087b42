/** `samegame prompts DESIGN`: the rendered prompts of a design, printed or written one file per prompt. */
import { join } from 'node:path';
import { finish } from './pipeline/write.js';
import { checkOutDir } from '../core/out-dir.js';
import { writeStdout } from '../core/stdout.js';
import { designWarnings, loadDesign } from '../live/design/design.js';
import { MAX_ROUNDS } from '../live/design/play-schema.js';
import { reviewPrompts } from '../live/prompts/review.js';
import { loadPlugins } from '../live/providers/plugins.js';
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { commandsMsg } from './messages.js';

export interface PromptsOptions { readonly out?: string; readonly model?: string; readonly game?: string; readonly framing?: string; readonly round?: number }

/** The highest round `prompts --round` accepts: a design's round limit. */
export const MAX_PROMPT_ROUND = MAX_ROUNDS;

export async function prompts(file: string, o: PromptsOptions, logger: Logger): Promise<void> {
  if (o.out !== undefined) checkOutDir('--out', o.out);
  const design = loadDesign(file);
  for (const w of designWarnings(design)) logger.warn(w);
  await loadPlugins(design.models, file); // a plug-in module is checked as a run would
  const rendered = reviewPrompts(design, o);
  if (o.out === undefined) {
    writeStdout(rendered.map((p) => p.text).join('\n'));
    return;
  }
  const dir = o.out;
  const files = rendered.map((p) => ({ path: join(dir, p.file), content: p.text }));
  try {
    finish({ result: undefined, files, print: (l) => l.info(commandsMsg.wrotePrompts(rendered.length, dir)) }, { logger });
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(commandsMsg.cannotWrite(dir, (e as NodeJS.ErrnoException).code ?? String(e)));
  }
}
