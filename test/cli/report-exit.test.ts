import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runInProcess as run, STACK } from '../helpers/in-process.js';
import { refusalKit } from '../helpers/refusals.js';

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

  it('--interval takes percentile, bca, cluster-robust or cluster-bootstrap only, naming the flag', async () => {
    const r = await runCli(['report', '--data', data, '--out', join(dir, 'x'), '--interval', 'studentized']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--interval: "studentized" is not percentile, bca, cluster-robust or cluster-bootstrap');
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });
});

/** The same verification exits 3 in audit as in reproduce; hostile names stay text in verification.md and audit.md. */
describe('verification exits and hostile names in Markdown', () => {
  const { tmp, SHIPPED, renamed } = refusalKit;

  describe('verification and Markdown', () => {
    it('audit exits 3 where reproduce exits 3 (the same verification)', async () => {
      const d = tmp();
      const f = join(d, 'r.csv');
      // n = 7 and a reported rate of 0.500: no count out of 7 reproduces it (counts_reproduce_rates).
      writeFileSync(f, SHIPPED.replace(/^(GPT-4,Stag Hunt,business),300,[0-9.]+/m, '$1,7,0.500'));
      const rep = await run(['reproduce', '--data', f, '--out', join(d, 'r'), '--reps', '100', '-q'], 120_000);
      const aud = await run(['audit', '--data', f, '--out', join(d, 'a'), '--reps', '100', '--search-reps', '50', '-q'], 120_000);
      expect(rep.code, rep.stderr).toBe(3);
      expect(aud.code, aud.stderr).toBe(3);
      // audit warns first about the impossible rate (its consistency check); the error line is the same.
      const last = (t: string) => t.trim().split('\n').at(-1);
      expect(last(aud.stderr)).toBe(last(rep.stderr));
      expect(last(aud.stderr)).toBe('samegame: verification failed: counts_reproduce_rates');
      expect(aud.stderr).not.toMatch(STACK);
    }, 240_000);

    it('verification.md and audit.md carry hostile names as text, not markup', async () => {
      const d = tmp();
      const f = join(d, 'r.csv');
      // A zero rate makes a degenerate cell, which verification.md lists by name.
      const t = renamed([['GPT-4', '<img src=x onerror=alert(1)>'], ['LLaMa-2', '</script>']])
        .replace(/^(<img[^,]*,Stag Hunt,business),300,[0-9.]+/m, '$1,300,0.000');
      writeFileSync(f, t);
      const rep = await run(['report', '--data', f, '--out', join(d, 'o'), '--reps', '100', '-q'], 120_000);
      expect(rep.code, rep.stderr).toBe(0);
      const r2 = await run(['reproduce', '--data', f, '--out', join(d, 'o'), '--reps', '100', '-q'], 120_000);
      const aud = await run(['audit', '--data', f, '--out', join(d, 'o'), '--reps', '100', '--search-reps', '50', '-q'], 120_000);
      expect([r2.code, aud.code]).toEqual([0, 0]);
      for (const md of ['verification.md', 'audit.md']) {
        const text = readFileSync(join(d, 'o', 'reports', md), 'utf8');
        expect(text, md).not.toMatch(/<img|<\/script/i);
      }
      expect(readFileSync(join(d, 'o', 'reports', 'verification.md'), 'utf8')).toContain('&lt;img src=x onerror=alert(1)>');
      expect(readFileSync(join(d, 'o', 'reports', 'audit.md'), 'utf8')).toContain('&lt;/script>');
    }, 300_000);
  });
});
