/**
 * `samegame init NAME [--kind …]`: write NAME.yaml, a commented design of the kind that runs
 * offline as written (init-designs.ts). An existing file is never replaced; the name must be an
 * id, since the design's store is runs/NAME.sqlite.
 */
import { existsSync } from 'node:fs';
import { UserError } from '../core/errors.js';
import { writeFilesAtomic } from '../core/atomic.js';
import { initMsg } from '../core/messages/init.js';
import { parseDesign } from '../live/design/design.js';
import { initDesign, INIT_KINDS, type InitKind } from './init-designs.js';

export { INIT_KINDS, type InitKind } from './init-designs.js';

/** Write NAME.yaml (in the working directory); returns its path. */
export function initCommand(name: string, kind: InitKind = 'one-shot'): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || name.length > 100) throw new UserError(initMsg.badName(name));
  if (!(INIT_KINDS as readonly string[]).includes(kind)) throw new UserError(initMsg.badKind(kind, INIT_KINDS));
  const file = `${name}.yaml`;
  if (existsSync(file)) throw new UserError(initMsg.exists(file));
  const text = initDesign(name, kind);
  parseDesign(text, file); // what init writes is a valid design (a failure here is a bug, never the user's)
  writeFilesAtomic([{ path: file, content: text }]);
  return file;
}
