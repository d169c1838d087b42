import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-report-exit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// One count that does not reproduce its reported rate (10/300 is not 0.5): counts_reproduce_rates fails.
const data = join(dir, 'bad-count.csv');
writeFileSync(data, [
  'model,game,framing,n,rate,cooperate',
  'M,G1,business,300,0.5,10',
  'M,G1,friend-sharing,300,0.6,180',
  'M,G2,business,300,0.2,60',
  'M,G2,friend-sharing,300,0.3,90',
].join('\n') + '\n');

describe('a failed verification check exits 3 on every rates command', () => {
  it('report writes its HTML (showing FAILED) and exits 3, as reproduce does', async () => {
    const r = await runCli(['report', '--data', data, '--out', join(dir, 'report'), '--reps', '200', '-q']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('verification failed: counts_reproduce_rates');
    const html = readFileSync(join(dir, 'report', 'reports', 'report.html'), 'utf8');
    expect(html).toContain('FAILED');
    const p = await runCli(['reproduce', '--data', data, '--out', join(dir, 'reproduce'), '--reps', '200', '-q']);
    expect(p.code).toBe(3);
  });

  it('--interval takes percentile or bca only, naming the flag', async () => {
    const r = await runCli(['report', '--data', data, '--out', join(dir, 'x'), '--interval', 'studentized']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--interval: "studentized" is not percentile or bca');
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });
});
