/**
 * The layout is the documentation (docs/architecture.md): every import of src/, `import type`
 * and dynamic `import()` included, follows the layer rules; no import cycles; no source file over
 * 300 lines, no line over 160 characters. The rules are shown to fail on fixture trees that break one rule each.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { checkTree, importsOf, kindDecisions, layerRule, longFiles, longFunctions, longLines } from './architecture/rules.js';
import { ROOT } from './helpers/cli.js';

const FIX = join(ROOT, 'test/fixtures/architecture');
const show = (vs: ReturnType<typeof checkTree>) => vs.map((v) => `${v.file}: import '${v.spec}' — ${v.rule}`);

describe('src/ follows the layout rules', () => {
  it('no forbidden import and no cycle', () => {
    expect(show(checkTree(join(ROOT, 'src')))).toEqual([]);
  });
  it('no source file over 300 lines', () => {
    expect(longFiles(join(ROOT, 'src'), 300)).toEqual([]);
  });
  it('no line over 160 characters', () => {
    expect(longLines(join(ROOT, 'src'), 160)).toEqual([]);
  });
  it('no function over 60 lines', async () => {
    expect(await longFunctions(join(ROOT, 'src'), 60)).toEqual([]);
  });
  it('no command decides an input kind from an optional field', () => {
    expect(kindDecisions(join(ROOT, 'src'))).toEqual([]);
  });
});

describe('the rules fail where they should (fixture trees)', () => {
  it('a line over 160 characters is named with file, line and length (counted in characters, not bytes)', () => {
    expect(longLines(join(FIX, 'long-line'), 160)).toEqual(['core/x.ts:3 (161)']);
    expect(longLines(join(FIX, 'ok'), 160)).toEqual([]);
  });
  it('a tree that keeps the rules passes', () => {
    expect(show(checkTree(join(FIX, 'ok')))).toEqual([]);
  });
  it('an upward import is named with file and import', () => {
    expect(show(checkTree(join(FIX, 'upward')))).toEqual([
      "core/x.ts: import '../stats/y.js' — core (layer 0) may not import stats (layer 1)",
    ]);
  });
  it('a type-only upward import counts too', () => {
    expect(show(checkTree(join(FIX, 'typeonly')))).toEqual([
      "core/s.ts: import '../render/spec.js' — core (layer 0) may not import render (layer 2)",
    ]);
  });
  it('an analysis reaching into another past its index.ts', () => {
    expect(show(checkTree(join(FIX, 'deep')))).toEqual([
      "analyses/b/b.ts: import '../a/a.js' — analysis b imports analysis a other than through its index.ts",
    ]);
  });
  it('cli/ reaching past commands/ into live/, sources/ or analyses/', () => {
    expect(show(checkTree(join(FIX, 'cli-reach')))).toEqual([
      "cli/a.ts: import '../live/l.js' — cli may not import live (it parses flags and calls a command)",
      "cli/b.ts: import '../sources/s.js' — cli may not import sources (it parses flags and calls a command)",
      "cli/c.ts: import '../analyses/x/index.js' — cli may not import analyses (it parses flags and calls a command)",
    ]);
  });
  it('an analysis reaching into the trial store (live/store/), a type import too; through sources/ it may', () => {
    expect(show(checkTree(join(FIX, 'store-reach')))).toEqual([
      "analyses/a/index.ts: import '../../live/store/store.js' — an analysis may not import live/store (it reads the trial store through sources/)",
      "analyses/a/types.ts: import '../../live/store/rows.js' — an analysis may not import live/store (it reads the trial store through sources/)",
    ]);
  });
  it('a command, or a CLI action, that decides the input kind from an optional field', () => {
    expect(kindDecisions(join(FIX, 'kind-branch')).map((v) => v.file)).toEqual([
      'cli/a.ts:2', 'cli/a.ts:3', 'commands/k.ts:3', 'commands/k.ts:4', 'commands/k.ts:5', 'commands/k.ts:6',
    ]);
    expect(kindDecisions(join(FIX, 'ok'))).toEqual([]);
  });
  it('a file cycle', () => {
    expect(show(checkTree(join(FIX, 'cycle')))).toEqual([
      "core/p.ts: import 'core/p.ts → core/q.ts' — import cycle",
    ]);
  });
});

describe('import reading', () => {
  it('reads static, type-only, re-export and dynamic imports; ignores packages', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export * from './c.js';",
      "export { d } from './d.js';",
      "const e = await import('./e.js');",
      "import z from 'zod';",
      "import './side-effect.js';",
    ].join('\n');
    expect(importsOf(text)).toEqual(['./a.js', '../b.js', './c.js', './d.js', './e.js', './side-effect.js']);
  });
  it('render may not import an analysis; live may not import sources; sources may read the store', () => {
    expect(layerRule('render/x.ts', 'analyses/a/index.ts')).toMatch(/may not import analyses/);
    expect(layerRule('live/runner/x.ts', 'sources/store.ts')).toMatch(/may not import sources/);
    expect(layerRule('sources/store.ts', 'live/store/store.ts')).toBeUndefined();
    expect(layerRule('analyses/a/x.ts', 'live/store/store.ts')).toMatch(/analysis may not import live\/store/);
    expect(layerRule('analyses/a/x.ts', 'live/design/types.ts')).toBeUndefined();
    expect(layerRule('cli/x.ts', 'commands/y.ts')).toBeUndefined();
    expect(layerRule('commands/y.ts', 'cli/x.ts')).toMatch(/may not import cli/);
  });
});
