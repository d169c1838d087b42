/**
 * Where outputs go, checked before any work: every command that writes (reproduce, report, audit,
 * analyze, coverage, prompts --out, export --out, run --store) asks here first, so a bad output
 * path ends with one line naming the flag, within a second, whatever the command would have computed.
 *
 * The output-path rule (docs/reference/specifications.md, "Output paths"): samegame replaces only regular files. An
 * existing symbolic link, FIFO, device or socket where an output file goes is refused, never
 * replaced nor written through (a rename onto /dev/null as root would replace the device); a
 * trial store (`run --store`) is opened in place, so a link to a regular file is followed there.
 * A path that cannot be looked at (a symlink loop, a name too long, no permission) is refused
 * with its error code.
 *
 * Directories are created one level at a time: Node's recursive mkdir never returns on some
 * pseudo file systems (`mkdirSync('/proc/x', { recursive: true })` loops), a plain mkdir fails at once.
 */
import { lstatSync, mkdirSync, rmdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join, parse, resolve, sep } from 'node:path';
import { UserError } from './errors.js';
import { msg } from './messages/common.js';

/** The file at `path` (following links, or not), undefined when there is none; other failures are the user's to fix. */
function look(path: string, follow: boolean, flag?: string): Stats | undefined {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') return undefined; // a component above is a file: reported by the walk
    if (code !== undefined) throw new UserError(msg.outUnreachable(flag, path, code));
    throw e;
  }
}

const stat = (path: string, flag?: string) => look(path, true, flag);

/** What a non-regular file is, for the message (an output path here, an input file in input-file.ts). */
export function kindOf(s: Stats): string {
  if (s.isSymbolicLink()) return 'a symbolic link';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  if (s.isSocket()) return 'a socket';
  return s.isDirectory() ? 'a directory' : 'not a regular file';
}

/**
 * Refuse to replace what is not a regular file (the rule above): `path` is absent or a regular
 * file, else a UserError naming it. With `followLinks`, a link to a regular file is accepted (a
 * store opened in place writes through it).
 */
export function assertReplaceable(path: string, flag?: string, followLinks = false): void {
  const s = look(path, followLinks, flag);
  if (s === undefined || s.isFile()) return;
  if (s.isDirectory() && flag !== undefined) throw new UserError(msg.outIsDirectory(flag, path));
  throw new UserError(msg.outNotRegular(flag, path, kindOf(s)));
}

/** The existing directories from the root down to `dir` (or to its deepest existing ancestor). */
function existingPrefix(flag: string, dir: string, shown: string): { deepest: string; complete: boolean } {
  const abs = resolve(dir);
  const root = parse(abs).root;
  const parts = abs.slice(root.length).split(sep).filter((p) => p !== '');
  let cur = root;
  for (const p of parts) {
    const next = join(cur, p);
    const s = stat(next, flag);
    if (s === undefined) return { deepest: cur, complete: false };
    if (!s.isDirectory()) throw new UserError(msg.outNotDirectory(flag, shown, next));
    cur = next;
  }
  return { deepest: cur, complete: true };
}

/** A directory can be made in `dir`: make and remove a probe (access() says yes to root on /proc). */
function probeWritable(flag: string, dir: string, shown: string): void {
  const probe = join(dir, `.samegame-probe-${process.pid}-${Date.now().toString(36)}`);
  try {
    mkdirSync(probe);
  } catch (e) {
    throw new UserError(msg.outUnwritable(flag, shown, dir, (e as NodeJS.ErrnoException).code ?? String(e)));
  }
  rmdirSync(probe);
}

/**
 * Refuse an output directory that cannot be one: a file, a path under a file, an existing
 * `subdirs` entry (reports/, figures/) that is a file, or a place where nothing can be created.
 * Creates nothing that stays.
 */
export function checkOutDir(flag: string, dir: string, subdirs: readonly string[] = [], shown = dir): void {
  const { deepest, complete } = existingPrefix(flag, dir, shown);
  if (complete) {
    for (const sub of subdirs) {
      const s = stat(join(deepest, sub), flag);
      if (s !== undefined && !s.isDirectory()) throw new UserError(msg.outNotDirectory(flag, shown, join(deepest, sub)));
    }
  }
  probeWritable(flag, deepest, shown);
}

/**
 * Refuse an output file path that is a directory, not a regular file (a link is followed when the
 * file is opened in place: `inPlace`), or whose directory cannot be made.
 */
export function checkOutFile(flag: string, file: string, o: { inPlace?: boolean } = {}): void {
  assertReplaceable(resolve(file), flag, o.inPlace === true);
  checkOutDir(flag, dirname(resolve(file)), [], file);
}

/** The folders a rates or store analysis writes under its --out. */
export const OUT_SUBDIRS = ['reports', 'figures'] as const;

/** mkdir -p, one level at a time (see above); an existing directory is fine. Returns the directories it made, outermost first. */
export function makeDirs(dir: string): string[] {
  const abs = resolve(dir);
  const s = stat(abs);
  if (s?.isDirectory()) return [];
  const parent = dirname(abs);
  const made = parent !== abs ? makeDirs(parent) : [];
  try {
    mkdirSync(abs);
    made.push(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !stat(abs)?.isDirectory()) throw e;
  }
  return made;
}

/** Remove the directories makeDirs made, innermost first, each only while it is empty. */
export function removeMadeDirs(made: readonly string[]): void {
  for (const d of [...made].reverse()) {
    try { rmdirSync(d); } catch { return; }
  }
}
