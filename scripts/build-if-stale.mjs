#!/usr/bin/env node
/**
 * Build dist/ with tsc unless it is up to date: `npm test` needs the compiled modules (the worker
 * threads and the binary load them), but checking an unchanged tree costs tsc about 5 s. dist/ is
 * up to date when its build info is newer than every file tsc reads of this package (src/**, the
 * tsconfig, package.json and the lock file, whose dependencies bring their types) — the make rule.
 * Any other case (no build, a newer source) runs the full `tsc -p tsconfig.json`, type checks and
 * all, and exits with its status.
 * Usage: node scripts/build-if-stale.mjs
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const info = join(root, 'dist', '.tsbuildinfo');

function newestInput() {
  let newest = 0;
  const files = ['tsconfig.json', 'package.json', 'package-lock.json'].map((f) => join(root, f))
    .concat(readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).map((f) => join(root, 'src', f)));
  for (const f of files) if (existsSync(f)) newest = Math.max(newest, statSync(f).mtimeMs);
  return newest;
}

if (existsSync(info) && statSync(info).mtimeMs > newestInput()) {
  process.stdout.write('dist/ is up to date with src/ (tsc skipped)\n');
} else {
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
  // tsc leaves its build info alone when nothing changed (a source touched, not edited): mark it
  // checked now. After errors it is marked stale, so that the next run checks again.
  if (existsSync(info)) utimesSync(info, tsc.status === 0 ? new Date() : new Date(0), tsc.status === 0 ? new Date() : new Date(0));
  process.exit(tsc.status ?? 1);
}
