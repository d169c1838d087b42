/**
 * The test suite's own set-up: the SLOWEST list of vitest.config.ts (the files started first) names
 * only test files that exist, each once; and the test files type-check (test/tsconfig.json, strict,
 * against the declarations of the built src/), so that `npm test` type-checks the tests too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

/** The quoted entries of the `const SLOWEST = [...]` array of a vitest config's text. */
function slowestList(config: string): string[] {
  const m = /const SLOWEST = \[([^\]]*)\]/.exec(config);
  if (!m) throw new Error('vitest.config.ts has no SLOWEST list');
  return [...m[1].matchAll(/'([^']*)'/g)].map((q) => q[1]);
}

describe('vitest.config.ts', () => {
  const slowest = slowestList(readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8'));

  it('SLOWEST names test files that exist, each once', () => {
    expect(slowest.length).toBeGreaterThan(0);
    expect(slowest.filter((f) => !/^test\/.+\.test\.ts$/.test(f) || !existsSync(join(ROOT, f))), 'not a test file of the tree').toEqual([]);
    expect(new Set(slowest).size).toBe(slowest.length);
  });

  it('the list is read from the config as written (a missing file would be named)', () => {
    expect(slowestList("const SLOWEST = [\n  'test/a.test.ts', 'test/b/c.test.ts',\n];")).toEqual(['test/a.test.ts', 'test/b/c.test.ts']);
  });
});

describe('the test files type-check', () => {
  it('tsc -p test/tsconfig.json reports no error', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'test', 'tsconfig.json')],
      { cwd: ROOT, encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
    expect(r.status).toBe(0);
  }, 300_000);
});
