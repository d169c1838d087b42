import { createWriteStream, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from './errors.js';
import { msg } from './messages/common.js';
import { assertReplaceable, makeDirs, removeMadeDirs } from './out-dir.js';

export interface OutputFile {
  readonly path: string;
  readonly content: string | Uint8Array;
}

const tempOf = (path: string) => `${path}.tmp-${process.pid}`;

/** A file system refusal (a file where a directory should be, no space, no permission) is the user's to fix: one line naming the path. */
function asUserError(e: unknown, path: string): unknown {
  if (e instanceof UserError) return e;
  const { code, syscall } = e as NodeJS.ErrnoException;
  return code !== undefined && syscall !== undefined ? new UserError(msg.cannotWrite(path, code)) : e;
}

/** Make the folder of `path` (noting in `made` the folders made) and a fresh temporary beside it (an old one of this pid is removed, never followed). */
function prepareTemp(path: string, made: string[] = []): string {
  assertReplaceable(path);
  made.push(...makeDirs(dirname(path)));
  const tmp = tempOf(path);
  rmSync(tmp, { force: true });
  return tmp;
}

/**
 * Write a set of files all or nothing, as far as a file system allows: every file goes to a
 * temporary sibling first; only when all are written are they renamed into place. A failure
 * before the renames leaves no output, no temporary (the one whose write failed included) and no
 * folder it made behind. Only regular files are replaced
 * (out-dir.ts): a link, FIFO, device or socket at an output path is refused before anything is written.
 */
export function writeFilesAtomic(files: readonly OutputFile[]): void {
  const temps: string[] = [];
  const made: string[] = [];
  let current = '';
  try {
    for (const f of files) assertReplaceable(f.path);
    for (const f of files) {
      current = f.path;
      const tmp = prepareTemp(f.path, made);
      temps.push(tmp); // before the write: a write that fails part-way (ENOSPC) has made the file, which goes too
      writeFileSync(tmp, f.content, { flag: 'wx' });
    }
  } catch (e) {
    for (const t of temps) rmSync(t, { force: true });
    removeMadeDirs(made);
    throw asUserError(e, current);
  }
  try {
    files.forEach((f, i) => { current = f.path; renameSync(temps[i], f.path); });
  } catch (e) {
    for (const t of temps) rmSync(t, { force: true });
    throw asUserError(e, current);
  }
}

/** A writer that waits for the stream to drain, so a large output never piles up in memory. */
export function streamWriter(s: NodeJS.WritableStream): (chunk: string) => Promise<void> {
  return (chunk) => new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    s.once('error', onError);
    const ok = s.write(chunk);
    const done = () => { s.off('error', onError); resolve(); };
    if (ok) done(); else s.once('drain', done);
  });
}

/**
 * One file written whole or not at all, by a producer that streams it: to a temporary sibling
 * (its folder made first), renamed into place when the producer is done; on any failure the
 * temporary is removed and nothing else is left. The same rule as writeFilesAtomic.
 */
export async function writeStreamAtomic<T>(path: string, produce: (write: (chunk: string) => Promise<void>) => Promise<T>): Promise<T> {
  let tmp: string | undefined;
  const made: string[] = [];
  const s = (() => {
    try {
      tmp = prepareTemp(path, made);
      return createWriteStream(tmp, { flags: 'wx' });
    } catch (e) {
      throw asUserError(e, path);
    }
  })();
  try {
    await new Promise<void>((resolve, reject) => { s.once('open', () => resolve()); s.once('error', reject); });
    const r = await produce(streamWriter(s));
    await new Promise<void>((resolve, reject) => { s.once('error', reject); s.end(() => resolve()); });
    assertReplaceable(path);
    renameSync(tmp!, path);
    return r;
  } catch (e) {
    s.destroy();
    rmSync(tmp!, { force: true });
    removeMadeDirs(made);
    throw asUserError(e, path);
  }
}
