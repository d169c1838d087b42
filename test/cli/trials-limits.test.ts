/**
 * The input limits through the CLI (docs/reference/specifications.md, "Limits", "Names"): a directory given as a file and a
 * name over the length limit end with one line, exit 2, nothing written — the name refused before
 * any work (a 2,000-character name used to be drawn into figures 0.7 GB larger).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, ROOT } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-trials-limits-'));

describe('input limits on the command line', () => {
  it('--trials DIR: one line, exit 2, nothing written', async () => {
    const d = join(dir, 'trials.jsonl');
    mkdirSync(d);
    const out = join(dir, 'o-dir');
    const r = await runCli(['reproduce', '--trials', d, '--out', out, '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`samegame: ${d}: cannot read the file (EISDIR)\n`);
    expect(existsSync(out)).toBe(false);
  });
  it.each(['--data', '--trials'])('%s with a 2,000-character model name: refused up front', async (flag) => {
    const name = 'M'.repeat(2000);
    const rates = readFileSync(join(ROOT, 'data/lore-heydari-2024/rates.csv'), 'utf8').replace(/^GPT-4,/gm, `${name},`);
    const f = join(dir, `long${flag}.csv`);
    writeFileSync(f, flag === '--data' ? rates : `model,game,framing,action\n${name},G,business,C\n${name},G,friend-sharing,D\n`);
    const out = join(dir, `o${flag}`);
    const r = await runCli(['reproduce', flag, f, '--out', out, '--reps', '100', '-q']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^samegame: \S+:\d+: field "model": is 2,000 characters long \(names may be at most 256\)\n$/);
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
