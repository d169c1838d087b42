import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { runCli } from '../../helpers/cli.js';

// The CLI in-process through main(argv) (test/helpers/cli.ts): exit code, stdout and stderr as
// the binary gives them; each test has its own temporary directory.
const fixtures = join(__dirname, '..', '..', 'fixtures', 'audit');
const cli = async (args: string[]) => { const r = await runCli(args); return { status: r.code, stdout: r.stdout, stderr: r.stderr }; };
const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-audit-'));

const HEADER = 'model,game,framing,n,rate';
const BAD: Record<string, string> = {
  'missing column': 'model,game,framing,rate\nM,G,business,0.1\n',
  'rate out of range': `${HEADER}\nM,G,business,300,1.2\nM,G,friend-sharing,300,0.5\n`,
  'n not a positive integer': `${HEADER}\nM,G,business,0,0.2\nM,G,friend-sharing,300,0.5\n`,
  'missing planned framing': `${HEADER}\nM,G,business,300,0.2\n`,
  'duplicate cell': `${HEADER}\nM,G,business,300,0.2\nM,G,business,300,0.3\nM,G,friend-sharing,300,0.5\n`,
};

describe('samegame audit: bad input', () => {
  for (const [name, text] of Object.entries(BAD)) {
    it(`${name}: the same message as reproduce, non-zero exit, nothing written`, async () => {
      const dir = tmp();
      const file = join(dir, 'bad.csv');
      writeFileSync(file, text);
      const [rep, aud] = await Promise.all([cli(['reproduce', '--data', file, '--out', join(dir, 'rep')]), cli(['audit', '--data', file, '--out', join(dir, 'aud')])]);
      expect(aud.status).not.toBe(0);
      expect(aud.status).toBe(rep.status);
      expect(aud.stderr).toBe(rep.stderr);
      expect(aud.stderr.trim().split('\n')).toHaveLength(1);
      expect(aud.stderr).toContain(file);
      expect(existsSync(join(dir, 'aud'))).toBe(false);
    });
  }
  it('a missing file and --base = --alt read as reproduce reads them', async () => {
    const dir = tmp();
    for (const args of [['--data', join(dir, 'nope.csv')], ['--base', 'business', '--alt', 'business']]) {
      const [rep, aud] = await Promise.all([cli(['reproduce', ...args, '--out', join(dir, 'rep')]), cli(['audit', ...args, '--out', join(dir, 'aud')])]);
      expect(aud.status).toBe(2);
      expect(aud.stderr).toBe(rep.stderr);
      expect(existsSync(join(dir, 'aud'))).toBe(false);
    }
  });
  it('rejects a bad --reading-error flag', async () => {
    const dir = tmp();
    const res = await cli(['audit', '--reading-error', '-1', '--out', dir]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('--reading-error');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('samegame audit: planted impossible rate', () => {
  it('flags exactly that cell with the counts around it, and still audits', async () => {
    const dir = tmp();
    const res = await cli(['audit', '--data', join(fixtures, 'rates-planted-0088.csv'), '--out', dir, '--reps', '1000', '--search-reps', '500']);
    // The audit is written in full; like reproduce, it then exits 3: the misread rate fails counts_reproduce_rates.
    expect(res.status).toBe(3);
    expect(res.stderr.trim().split('\n').at(-1)).toBe('samegame: verification failed: counts_reproduce_rates');
    const warnings = res.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('rates-planted-0088.csv:2: field "rate": 0.088 cannot come from any count out of n = 300');
    expect(warnings[0]).toContain('26/300 → 0.087, 27/300 → 0.090');
    const md = readFileSync(join(dir, 'reports', 'audit.md'), 'utf8');
    expect(md).toContain("**1 cell flagged**: GPT-3.5 / Prisoner's Dilemma / business (line 2).");
    expect(md).toContain('none; nearest 26 (→ 0.087), 27 (→ 0.090)');
    const json = JSON.parse(readFileSync(join(dir, 'reports', 'audit.json'), 'utf8'));
    const flagged = json.consistency.filter((c: { status: string }) => c.status !== 'consistent');
    expect(flagged).toHaveLength(1);
    expect(flagged[0].line).toBe(2);
  });
});

describe('samegame audit: shipped data', () => {
  it('writes reports/audit.{md,json,html} and the audit figures', async () => {
    const dir = tmp();
    const res = await cli(['audit', '--out', dir, '--reps', '2000', '-q']);
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('consistency: all 24 reported rates are possible at their n');
    expect(res.stdout).toContain('the ordering of the models by R:');
    expect(readdirSync(join(dir, 'reports')).sort()).toEqual(['audit.html', 'audit.json', 'audit.md']);
    expect(readdirSync(join(dir, 'figures')).sort()).toEqual([
      'audit-attenuation.png', 'audit-attenuation.svg', 'audit-attenuation.vl.json',
      'audit-tipping-points.png', 'audit-tipping-points.svg', 'audit-tipping-points.vl.json']);
    const spec = JSON.parse(readFileSync(join(dir, 'figures', 'audit-attenuation.vl.json'), 'utf8'));
    expect(JSON.stringify(spec)).toContain('"datum":0.66');
    expect(JSON.stringify(spec)).toContain('"datum":0.7');
  });
});
