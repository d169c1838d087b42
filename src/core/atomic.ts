import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

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
  try {
    for (const f of files) {
      mkdirSync(dirname(f.path), { recursive: true });
      const tmp = `${f.path}.tmp-${process.pid}`;
      writeFileSync(tmp, f.content);
      temps.push(tmp);
    }
  } catch (e) {
    for (const t of temps) rmSync(t, { force: true });
    throw e;
  }
  files.forEach((f, i) => renameSync(temps[i], f.path));
}
