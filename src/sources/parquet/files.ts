/**
 * The files of a Parquet export (`samegame export --format parquet --out DIR`: DIR/model=…/game=…/framing=…/*.parquet): the
 * folder or a glob of its files as the user names them, the folder they belong to (where the export's sidecar lies,
 * DIR.provenance.json), and the export's SHA-256 (of its files' hashes and paths, as the sidecar records it).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UserError } from '../../core/errors.js';
import { sha256File } from '../../core/hash.js';
import { PARQUET_PARTITIONS } from '../export-layout.js';
import { lit } from '../engine/compile.js';
import { parquetMsg } from './messages.js';
import { querySync } from './sync-query.js';

const GLOB = /[*?[]/;

/** A path segment naming a partition folder of an export (model=…, game=…, framing=…). */
const PARTITION = new RegExp(`(^|[\\\\/])(${PARQUET_PARTITIONS.join('|')})=`);

/**
 * True when `path` names a Parquet export (`export --format parquet`): its folder, a file or glob under its partition folders
 * (model=…/game=…/framing=…), or a glob from a folder that holds them. A .parquet file or glob outside such folders is a Parquet
 * log, read through its --format like any other log; a per-trial file's extension is never an export.
 */
export function isParquetInput(path: string): boolean {
  if (/\.(csv|tsv|txt|jsonl|ndjson)$/i.test(path)) return false;
  if (PARTITION.test(path)) return true;
  const { dir, pattern } = literalPrefix(path);
  try {
    if (pattern === undefined) return statSync(dir).isDirectory();
    return readdirSync(dir).some((n) => PARTITION.test(n));
  } catch { return false; }
}

/**
 * The literal part of a path (absolute) and the glob after it: a segment is a pattern when it has glob characters and the path up
 * to it names no file or folder as typed (a folder named with [, * or ? is a folder); a path without such a segment is literal.
 */
function literalPrefix(path: string): { dir: string; pattern?: string } {
  if (!GLOB.test(path)) return { dir: resolve(path) };
  const parts = path.split(/[\\/]/);
  const at = parts.findIndex((p, i) => GLOB.test(p) && !existsSync(parts.slice(0, i + 1).join(sep)));
  if (at < 0) return { dir: resolve(path) };
  return { dir: resolve(parts.slice(0, at).join(sep) || (isAbsolute(path) ? sep : '.')), pattern: parts.slice(at).join('/') };
}

/** The export folder of a path: the folder itself, else what comes before the model=… segment of a file's (or a glob's) folders. */
export function exportRoot(path: string): string {
  const dir = literalPrefix(path).dir;
  const parts = dir.split(sep);
  const from = Math.max(0, parts.length - (PARQUET_PARTITIONS.length + 1));
  const i = parts.slice(from).findIndex((p) => p.startsWith(`${PARQUET_PARTITIONS[0]}=`));
  const at = i < 0 ? -1 : from + i;
  return at < 0 ? dir : parts.slice(0, at).join(sep) || sep;
}

/** Where a per-trial file's sidecar lies: beside the file, or beside the folder of a Parquet export. */
export const sidecarBase = (file: string): string => (isParquetInput(file) ? exportRoot(file) : resolve(file));

export interface ExportFiles {
  /** The export folder (absolute). */
  readonly root: string;
  /** Its .parquet files (absolute), sorted. */
  readonly files: readonly string[];
}

/** A folder's .parquet files, at any depth. */
const folderFiles = (dir: string): string[] =>
  (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.parquet$/i.test(f)).map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());

/** The files a folder, a file or a glob names, each checked to lie in model=…/game=…/framing=… of one export folder. */
export function exportFiles(path: string, display: string): ExportFiles {
  const abs = resolve(path);
  const glob = literalPrefix(path);
  let files: string[];
  // the glob's own part matched from its literal folder (a folder named with [, * or ? above it is not a pattern)
  if (glob.pattern !== undefined) {
    files = statSync(glob.dir, { throwIfNoEntry: false })?.isDirectory()
      ? querySync(display, [`SELECT file FROM glob(${lit(glob.pattern)})`], { cwd: glob.dir })[0].map((r) => resolve(glob.dir, String(r.file))) : [];
  } else files = statSync(abs, { throwIfNoEntry: false })?.isDirectory() ? folderFiles(abs) : [abs];
  files = files.filter((f) => statSync(f, { throwIfNoEntry: false })?.isFile()).sort();
  if (files.length === 0) throw new UserError(parquetMsg.noFiles(display));
  const root = exportRoot(path);
  for (const f of files) {
    const parts = relative(root, f).split(sep);
    const ok = parts.length === PARQUET_PARTITIONS.length + 1 && PARQUET_PARTITIONS.every((p, i) => parts[i].startsWith(`${p}=`));
    if (!ok) throw new UserError(parquetMsg.notPartitioned(f));
  }
  return { root, files };
}

/** The SHA-256 of an export: of the lines "sha256  path" of its files (paths relative to the folder, sorted), as several logs are hashed. */
export function exportSha256(e: ExportFiles): string {
  const lines = e.files.map((f) => relative(e.root, f).split(sep).join('/')).sort().map((rel) => `${sha256File(join(e.root, rel))}  ${rel}\n`);
  return createHash('sha256').update(lines.join('')).digest('hex');
}

/** The SHA-256 of the export folder `dir` (what `export` records in its sidecar). */
export const exportFolderSha256 = (dir: string): string => exportSha256({ root: resolve(dir), files: folderFiles(resolve(dir)).sort() });
