#!/usr/bin/env node
/**
 * Build dist/ with tsc unless it is up to date: `npm test` needs the compiled modules (the worker
 * threads and the binary load them), but checking an unchanged tree costs tsc about 5 s. dist/ is
 * up to date when a build's own output (an emitted .js file, or the stamp this script writes after
 * a successful tsc) is newer than every file tsc reads (scripts/build-stamp.mjs) — the make rule.
 * The build info is not consulted: `tsc --noEmit` rewrites it without building.
 * Any other case (no build, a newer source) runs the full `tsc -p tsconfig.json`, type checks and
 * all, and exits with its status.
 * Usage: node scripts/build-if-stale.mjs
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STAMP, upToDate } from './build-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', STAMP);

if (upToDate(root)) {
  process.stdout.write('dist/ is up to date with src/ (tsc skipped)\n');
} else {
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
  // tsc rewrites no .js when nothing changed (a source touched, not edited): the stamp marks the
  // build checked now. After errors the stamp goes, so that the next run checks again.
  if (tsc.status === 0) writeFileSync(stamp, `${new Date().toISOString()}\n`);
  else rmSync(stamp, { force: true });
  process.exit(tsc.status ?? 1);
}
