/**
 * When dist/ is up to date with src/ (the make rule of scripts/build-if-stale.mjs). The evidence
 * of a build is what only a build writes: the emitted .js files and dist/.build-stamp, which
 * build-if-stale.mjs writes after tsc succeeds. The build info dist/.tsbuildinfo is not evidence:
 * `tsc --noEmit` rewrites it without emitting anything.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const STAMP = '.build-stamp';

function newestUnder(dir, keep) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (keep(f)) newest = Math.max(newest, statSync(join(dir, f)).mtimeMs);
  }
  return newest;
}

/** The newest mtime among the files tsc reads: src/**, the tsconfig, package.json and the lock file. */
export function newestInput(root) {
  let newest = newestUnder(join(root, 'src'), () => true);
  for (const f of ['tsconfig.json', 'package.json', 'package-lock.json']) {
    if (existsSync(join(root, f))) newest = Math.max(newest, statSync(join(root, f)).mtimeMs);
  }
  return newest;
}

/** The newest mtime of a build's own outputs: an emitted .js file or the stamp. */
export function newestBuild(root) {
  return newestUnder(join(root, 'dist'), (f) => f.endsWith('.js') || f === STAMP);
}

export function upToDate(root) {
  return newestUnder(join(root, 'dist'), (f) => f.endsWith('.js')) > 0 && newestBuild(root) > newestInput(root);
}
