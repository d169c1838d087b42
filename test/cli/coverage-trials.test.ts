/**
 * coverage --trials: a per-trial file gives the same cells and n as the counts file it was made
 * from (test/fixtures/trials/make_fixtures.py), so with the same seed and attenuation the
 * simulated coverage table is identical; a clustered file is refused (coverage simulates
 * independent decisions), writing nothing.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, ROOT } from '../helpers/cli.js';

const FIX = join(ROOT, 'test/fixtures/trials');
const dir = mkdtempSync(join(tmpdir(), 'sg-coverage-trials-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('samegame coverage --trials', () => {
  it('equals coverage of the counts file of the same trials (same seed, same attenuation)', async () => {
    const common = ['--sims', '6', '--reps', '99', '--seed', '7', '--attenuation', '1', '-q'];
    const a = await runCli(['coverage', '--data', join(FIX, 'counts.csv'), '--out', join(dir, 'counts'), ...common]);
    const b = await runCli(['coverage', '--trials', join(FIX, 'trials.jsonl'), '--out', join(dir, 'trials'), ...common]);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    const csv = (d: string) => readFileSync(join(dir, d, 'reports', 'coverage.csv'), 'utf8');
    expect(csv('trials')).toBe(csv('counts'));
    expect(csv('counts').trim().split('\n').length).toBeGreaterThan(1);
  });

  it('refuses a clustered per-trial file and an input given twice, with one line and nothing written', async () => {
    const out = join(dir, 'refused');
    const c = await runCli(['coverage', '--trials', join(FIX, 'clustered.csv'), '--cluster', 'conversation', '--out', out, '--sims', '2', '--reps', '50']);
    expect(c.code).toBe(2);
    expect(c.stderr.trim().split('\n')).toHaveLength(1);
    expect(c.stderr).toContain('clustered per-trial file cannot be simulated');
    const both = await runCli(['coverage', '--trials', join(FIX, 'trials.csv'), '--data', join(FIX, 'counts.csv'), '--out', out]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give one input');
    expect(existsSync(out)).toBe(false);
  });
});
