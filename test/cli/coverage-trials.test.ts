/**
 * coverage --trials: a per-trial file gives the same cells and n as the counts file it was made
 * from (test/fixtures/trials/make_fixtures.py), so with the same seed and attenuation the
 * simulated coverage table is identical; a clustered file is simulated match by match and its
 * coverage given for the cluster-robust intervals and the cluster bootstrap.
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

  it('a clustered per-trial file: simulated match by match, both clustered intervals reported; an input given twice refused, nothing written', async () => {
    const c = await runCli(['coverage', '--trials', join(FIX, 'clustered.csv'), '--cluster', 'conversation', '--out', join(dir, 'clustered'), '--sims', '4', '--reps', '50']);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stderr).toMatch(/clustered cells \(\d+ matches\): each simulation redraws every cell's matches as they are \(beta-binomial, within-match correlation \d\.\d{3}/);
    const methods = new Set(readFileSync(join(dir, 'clustered', 'reports', 'coverage.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')[1]));
    expect([...methods]).toEqual(['cluster-robust', 'cluster-bootstrap']);
    const out = join(dir, 'refused');
    const both = await runCli(['coverage', '--trials', join(FIX, 'trials.csv'), '--data', join(FIX, 'counts.csv'), '--out', out]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give one input');
    expect(existsSync(out)).toBe(false);
  });
});
