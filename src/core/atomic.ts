import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from './errors.js';
import { msg } from './messages/common.js';
import { makeDirs } from './out-dir.js';

export interface OutputFile {
  readonly path: string;
  readonly content: string | Uint8Array;
}

/**
 * Write a set of files all or nothing, as far as a file system allows: every file goes to a
 * temporary sibling first; only when all are written are they renamed into place. A failure
 * before the renames leaves no output and no temporary behind.
 */
export function writeFilesAtomic(files: readonly OutputFile[]): void {
  const temps: string[] = [];
  let current = '';
  try {
    for (const f of files) {
      current = f.path;
      makeDirs(dirname(f.path));
      const tmp = `${f.path}.tmp-${process.pid}`;
      writeFileSync(tmp, f.content);
      temps.push(tmp);
    }
  } catch (e) {
    for (const t of temps) rmSync(t, { force: true });
    // A file system refusal (a file where a directory should be, no space, no permission) is the
    // user's to fix: one line naming the path.
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== undefined) throw new UserError(msg.cannotWrite(current, code));
    throw e;
  }
  files.forEach((f, i) => renameSync(temps[i], f.path));
}
