import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { upToDate } from '../../scripts/build-stamp.mjs';

function at(file: string, seconds: number, text = 'x'): void {
  writeFileSync(file, text);
  utimesSync(file, seconds, seconds);
}

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'build-stamp-'));
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'dist'));
  at(join(root, 'tsconfig.json'), 1000);
  at(join(root, 'src', 'a.ts'), 1000);
  at(join(root, 'dist', 'a.js'), 2000);
  return root;
}

describe('build-if-stale: when dist/ is up to date', () => {
  it('is up to date when an emitted .js file is newer than every source', () => {
    expect(upToDate(tree())).toBe(true);
  });

  it('is stale after `tsc --noEmit`, which rewrites only the build info, following a source edit', () => {
    const root = tree();
    at(join(root, 'src', 'a.ts'), 3000);
    at(join(root, 'dist', '.tsbuildinfo'), 4000);
    expect(upToDate(root)).toBe(false);
  });

  it('is up to date again once a build writes its stamp, even when no .js changed', () => {
    const root = tree();
    at(join(root, 'src', 'a.ts'), 3000);
    at(join(root, 'dist', '.build-stamp'), 4000);
    expect(upToDate(root)).toBe(true);
  });

  it('is stale with no emitted .js at all', () => {
    const empty = mkdtempSync(join(tmpdir(), 'build-stamp-'));
    mkdirSync(join(empty, 'src'));
    at(join(empty, 'src', 'a.ts'), 1000);
    mkdirSync(join(empty, 'dist'));
    at(join(empty, 'dist', '.tsbuildinfo'), 5000);
    expect(upToDate(empty)).toBe(false);
  });
});
