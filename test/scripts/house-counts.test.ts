/**
 * scripts/house-counts.mjs on fixture trees (`--root`): each count the route's house is held to
 * rises when its rule is broken, so none is a count that cannot fail — a statistic name spelt
 * outside the Table 3 registry (words of other vocabularies left out, comments too), a stored design
 * parsed outside the store module, a store opened by hand in a command, a command importing another's file, a second store-error
 * mapper or a wrapper of the store's guard.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'house-counts.mjs');
const roots: string[] = [];
afterAll(() => { for (const r of roots) rmSync(r, { recursive: true, force: true }); });

/** A tree of src/ files; returns the counts the script prints for it, by name, with where each is. */
function counts(files: Record<string, string>): Map<string, { n: number; where: string[] }> {
  const root = mkdtempSync(join(tmpdir(), 'house-counts-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, 'src', path)), { recursive: true });
    writeFileSync(join(root, 'src', path), text);
  }
  const out = execFileSync(process.execPath, [SCRIPT, '--root', root, '--list'], { encoding: 'utf8' });
  const map = new Map<string, { n: number; where: string[] }>();
  let last: { n: number; where: string[] } | undefined;
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s{2}(.+?) \(target \d+\)/.exec(line);
    if (m) { last = { n: Number(m[1]), where: [] }; map.set(m[2], last); } else if (line.trim()) last!.where.push(line.trim());
  }
  return map;
}

const REGISTRY = ["const R = { column: 'R', names: { cell: 'R2', cellConservative: 'R2_conservative', group: 'R_raw', groupConservative: 'R' } };",
  "const S = { column: 'shift', names: { cell: 'shift_raw', cellConservative: 'shift_conservative', group: 'shift_raw', groupConservative: 'shift' } };",
  "export const FAMILY_R = 'Rfam';", ''].join('\n');

describe('house counts', () => {
  it('statistic-name literals: one spelt outside the registry counts, other vocabularies and comments do not', () => {
    const c = counts({
      'stats/table3.ts': REGISTRY,
      'analyses/a.ts': [
        "const v = boot.get(stat('shift', model));", // counted
        "const lo = row['R_lo'];", // counted: a column's end
        "const f = stat(`Rfam`, m);", // counted: a template without interpolation
        "if (rule.target === 'shift') go();", // a stop target
        "const k: StatKind = 'shift';", // a kind of bounds
        "// stat('R', m) in a comment", ''].join('\n'),
      'analyses/preregistration/plan.ts': "export const PLAN_ESTIMANDS = ['shift', 'R'];\n",
    }).get('statistic-name literals outside the registry')!;
    expect(c.n).toBe(3);
    expect(c.where).toEqual(["src/analyses/a.ts:1 'shift'", "src/analyses/a.ts:2 'R_lo'", 'src/analyses/a.ts:3 `Rfam`']);
  });

  it('store-error exports: a mapper, or a wrapper handing the guard a function it was given, counts; a function guarding its own work does not', () => {
    const c = counts({
      'stats/table3.ts': REGISTRY,
      'live/store/integrity.ts': ['function storeError(p, e) { return e; }',
        'export function storeGuard<T>(path: string, fn: () => T): T { try { return fn(); } catch (e) { throw storeError(path, e); } }', ''].join('\n'),
      'live/store/open.ts': 'export function useStore<T>(path: string, use: (s: Store) => T): T {\n  return storeGuard(path, () => use(open(path)));\n}\n',
      'sources/read.ts': ['export function readIt(path: string, o: { order?: (x) => number }) {', '  return storeGuard(path, () => o.order?.(1));', '}',
        'export const says = (p: string) => storeMsg.storeDamaged(p, \'x\');', ''].join('\n'),
    }).get('store-error exports')!;
    expect(c.where).toEqual(['src/live/store/integrity.ts:2 storeGuard', 'src/live/store/open.ts:1 useStore', 'src/sources/read.ts:4 says']);
  });

  it('stored-design readers, store openers in commands, and commands importing each other', () => {
    const c = counts({
      'stats/table3.ts': REGISTRY,
      'live/store/stored-design.ts': 'export const read = (run) => JSON.parse(run.designJson);\n', // the one reader
      'live/replay/replay.ts': 'const d = JSON.parse(run.designJson);\n',
      'cli/plan.ts': "import { plan } from '../commands/plan.js';\n",
      'cli/reproduce.ts': "import { reproduce } from '../commands/reproduce.js';\n",
      'commands/plan.ts': "import { DEFAULTS } from './reproduce.js';\nconst s = TrialStore.openExisting(p);\n",
      'commands/reproduce.ts': 'export const DEFAULTS = {};\n',
      'commands/shared.ts': "import { DEFAULTS } from './reproduce.js';\n", // belongs to no command
    });
    expect(c.get('stored-design readers outside the store module')).toEqual({ n: 1, where: ['src/live/replay/replay.ts:1'] });
    expect(c.get('TrialStore.openExisting in commands/')).toEqual({ n: 1, where: ['src/commands/plan.ts:2'] });
    expect(c.get('command files importing another command')).toEqual({ n: 1, where: ['src/commands/plan.ts → reproduce'] });
  });

  it('commands importing each other: a command known by its NAME-*.js, and the shared pipeline importing a command\'s file', () => {
    const c = counts({
      'stats/table3.ts': REGISTRY,
      'cli/meta.ts': "const { meta } = await import('../commands/meta-outputs.js');\n",
      'cli/analyze.ts': "import { analyze } from '../commands/analyze.js';\n",
      'commands/meta-outputs.ts': 'export const meta = 1;\n',
      'commands/meta-pooling.ts': 'export const pool = 1;\n',
      'commands/analyze.ts': "import { run } from './pipeline/store.js';\nimport { pool } from './meta-pooling.js';\n",
      'commands/pipeline/store.ts': "import { pool } from '../meta-pooling.js';\nimport { notes } from '../file-notes.js';\nimport { w } from './write.js';\n",
      'commands/pipeline/write.ts': 'export const w = 1;\n',
      'commands/file-notes.ts': 'export const notes = 1;\n', // belongs to no command
    }).get('command files importing another command')!;
    expect(c.where).toEqual(['src/commands/analyze.ts → meta-pooling', 'src/commands/pipeline/store.ts → meta-pooling']);
  });
});
