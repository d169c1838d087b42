import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'samegame-prompts-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const files = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();

describe('samegame prompts', () => {
  it('prints one prompt per model × game × framing of the quickstart (2 × 4 × 4 = 32)', async () => {
    const r = await runCli(['prompts', 'data/designs/quickstart.yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/^=== model /gm)).toHaveLength(32);
    expect(r.stdout).toContain('=== model Sim-A (simulated: Sim-A) | game prisoners-dilemma | framing business (business) ===');
    expect(r.stdout).toContain('synthetic design');
  });

  it('filters by model, game and framing', async () => {
    const r = await runCli(['prompts', 'data/designs/same-game.yaml', '--model', 'gpt-4o', '--game', 'stag-hunt', '--framing', 'role-narrative']);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/^=== model /gm)).toHaveLength(1);
    expect(r.stdout).toContain('--- system ---\nYou are the foreign minister of Country A.');
    expect(r.stdout).toContain('labels: DISARM = C, ARM = D');
  });

  it('writes the files under --out', async () => {
    const out = join(tmp, 'review');
    const r = await runCli(['prompts', 'data/designs/quickstart.yaml', '--out', out, '--game', 'harmony']);
    expect(r.code).toBe(0);
    const got = files(out);
    expect(got).toHaveLength(2 * 4);
    expect(got[0]).toBe(join('Sim-A', 'harmony', 'abstract-matrix.txt'));
    expect(readFileSync(join(out, 'Sim-B', 'harmony', 'labels-jf.txt'), 'utf8')).toContain('| You play J | (10, 10) | (3, 5) |');
    expect(r.stderr).toContain('wrote 8 prompt files');
  });

  it('an unknown filter value fails with the known ids and writes nothing', async () => {
    const out = join(tmp, 'none');
    const r = await runCli(['prompts', 'data/designs/quickstart.yaml', '--out', out, '--framing', 'friends']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('samegame: --framing "friends" is not in the design (known: business, friend-sharing, abstract-matrix, labels-jf)\n');
    expect(existsSync(out)).toBe(false);
  });

  it('a bad design names the file, line and document path', async () => {
    const r = await runCli(['prompts', 'test/fixtures/designs/bad-provider.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^samegame: test\/fixtures\/designs\/bad-provider\.yaml:6: field "models\[1\]\.provider": Invalid option/);
    expect(r.stdout).toBe('');
  });
});
