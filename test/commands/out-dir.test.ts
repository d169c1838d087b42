/**
 * Every command that writes checks its output directory itself, before any work: the library
 * refuses an `out` that is a file in one line, as the CLI does, and writes nothing; a dry run
 * writes nothing and needs no directory.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit, coverage, meta, report, reproduce, UserError } from '../../src/index.js';
import { ROOT } from '../helpers/cli.js';

function fileAsOut(): { dir: string; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-out-'));
  const out = join(dir, 'not-a-folder');
  writeFileSync(out, 'x');
  return { dir, out };
}

const COMMANDS: [string, (out: string) => Promise<unknown>][] = [
  ['reproduce', (out) => reproduce({ out, reps: 50 })],
  ['report', async (out) => report({ out, reps: 50 })],
  ['audit', (out) => audit({ out, reps: 50 })],
  ['coverage', (out) => coverage({ out, data: join(ROOT, 'data/lore-heydari-2024/rates.csv'), sims: 2, reps: 50 } as Parameters<typeof coverage>[0])],
  ['meta', (out) => meta({ out, manifest: join(ROOT, 'data/meta/lore-heydari.yaml') })],
];

describe('an out that is a file is refused by the command, before any work', () => {
  for (const [name, call] of COMMANDS) {
    it(name, async () => {
      const { dir, out } = fileAsOut();
      const err = await call(out).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(UserError);
      expect((err as Error).message).toMatch(/^--out ".*not-a-folder": ".*" exists and is not a directory$/);
      expect(readdirSync(dir)).toEqual(['not-a-folder']);
    });
  }
  it('a dry run writes nothing and does not look at out', async () => {
    const { out } = fileAsOut();
    const res = await reproduce({ out, reps: 50, dryRun: true, figures: false });
    expect(res.table3.length).toBeGreaterThan(0);
  });
});
