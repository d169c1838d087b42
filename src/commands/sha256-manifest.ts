/**
 * A capsule's SHA-256 manifest (MANIFEST.sha256, the format of `sha256sum`: "<hex>  <path>" per
 * file, sorted): written by capsule, checked by replay --capsule (a file changed, missing or added).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { OutputFile } from '../core/atomic.js';
import { UserError } from '../core/errors.js';
import type { ReplayKind } from '../live/replay/replay.js';
import { commandsMsg } from './messages.js';

/** One difference replay finds: a trial's prompt, request or decision, an output file, or a capsule file. */
export interface ReplayDifference {
  readonly kind: ReplayKind | 'output' | 'manifest';
  /** The trial (model|game|framing|rep) or the file. */
  readonly trial: string;
  readonly detail: string;
}

/** Every file under dir, as paths relative to it (with /), sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p); else out.push(relative(dir, p).split('\\').join('/'));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}

export const MANIFEST = 'MANIFEST.sha256';

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The manifest's text for every file of the folder but the manifest itself, and the files about to be written into it (`files`, absolute paths). */
export function manifestText(dir: string, files: readonly OutputFile[] = []): string {
  const toWrite = new Map(files.map((f) => [relative(resolve(dir), f.path).split('\\').join('/'), f.content]));
  const paths = [...new Set([...filesUnder(dir), ...toWrite.keys()])].filter((f) => f !== MANIFEST).sort();
  return paths.map((f) => {
    const content = toWrite.get(f);
    return `${content === undefined ? sha256(join(dir, f)) : createHash('sha256').update(content).digest('hex')}  ${f}\n`;
  }).join('');
}

/** The manifest checked against the folder: one difference per file changed, missing or not listed. */
export function checkManifest(dir: string): ReplayDifference[] {
  const path = join(dir, MANIFEST);
  if (!existsSync(path)) throw new UserError(commandsMsg.notACapsule(path));
  const listed = new Map(readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => [l.slice(66), l.slice(0, 64)] as const));
  const out: ReplayDifference[] = [];
  for (const [f, hash] of listed) {
    if (!existsSync(join(dir, f))) out.push({ kind: 'manifest', trial: f, detail: commandsMsg.manifestMissing() });
    else if (sha256(join(dir, f)) !== hash) out.push({ kind: 'manifest', trial: f, detail: commandsMsg.manifestChanged() });
  }
  for (const f of filesUnder(dir)) if (f !== MANIFEST && !listed.has(f)) out.push({ kind: 'manifest', trial: f, detail: commandsMsg.manifestExtra() });
  return out;
}
