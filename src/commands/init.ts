/**
 * `samegame init NAME [--kind …]`: write NAME.yaml, a commented design of the kind that runs
 * offline as written (init-designs.ts). An existing file is never replaced; the name must be an
 * id, since the design's store is runs/NAME.sqlite.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { finish } from './pipeline/write.js';
import { parseDesign } from '../live/design/design.js';
import { initDesign, INIT_KINDS, type InitKind } from './init-designs.js';
import { commandsMsg } from './messages.js';
import { initPlan } from './init-plan.js';

export { INIT_KINDS, type InitKind } from './init-designs.js';

export interface InitOptions {
  /** The design name: the file NAME.yaml, the store runs/NAME.sqlite. */
  readonly name: string;
  /** one-shot (default), repeated or enrichment. */
  readonly kind?: InitKind;
  /** The folder NAME.yaml is written in (default: the working directory). */
  readonly dir?: string;
  readonly logger?: Logger;
}

/** Write NAME.yaml (and for a one-shot design NAME.plan.yaml, a starter plan); returns its path (and the design's text). */
export function init(o: InitOptions): { readonly file: string; readonly text: string } {
  const kind = o.kind ?? 'one-shot';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(o.name) || o.name.length > 100) throw new UserError(commandsMsg.badName(o.name));
  if (!(INIT_KINDS as readonly string[]).includes(kind)) throw new UserError(commandsMsg.badKind(kind, INIT_KINDS));
  const file = join(o.dir ?? '.', `${o.name}.yaml`);
  if (existsSync(file)) throw new UserError(commandsMsg.exists(file));
  const text = initDesign(o.name, kind);
  parseDesign(text, file); // what init writes is a valid design (a failure here is a bug, never the user's)
  // A one-shot design gets a starter preregistration plan beside it (preregister.ts).
  const plan = kind === 'one-shot' ? join(o.dir ?? '.', `${o.name}.plan.yaml`) : undefined;
  if (plan !== undefined && existsSync(plan)) throw new UserError(commandsMsg.exists(plan));
  return finish({ result: { file, text }, files: [{ path: file, content: text }, ...(plan === undefined ? [] : [{ path: plan, content: initPlan(o.name) }])],
    print: (logger) => logger.info(commandsMsg.initWrote(file, o.name)) }, o);
}
