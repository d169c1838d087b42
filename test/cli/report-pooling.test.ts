import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/**
 * `samegame report` takes reproduce's flags and writes the report reproduce writes: with
 * --pooling random the same report.html byte for byte (random-effects section and its regenerate
 * command included), and nothing but the report.
 */
const dir = mkdtempSync(join(tmpdir(), 'sg-report-pooling-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('report --pooling', () => {
  it('random: the same report.html as reproduce --pooling random, alone', async () => {
    const flags = ['--pooling', 'random', '--reps', '200', '-q'];
    const r = await runCli(['report', ...flags, '--out', join(dir, 'report')]);
    expect(r.code, r.stderr).toBe(0);
    const p = await runCli(['reproduce', ...flags, '--out', join(dir, 'reproduce')]);
    expect(p.code, p.stderr).toBe(0);
    const html = readFileSync(join(dir, 'report', 'reports', 'report.html'), 'utf8');
    expect(html).toContain('random effects over games');
    expect(html).toBe(readFileSync(join(dir, 'reproduce', 'reports', 'report.html'), 'utf8'));
    expect(readdirSync(join(dir, 'report', 'reports'))).toEqual(['report.html']);
  });

  it('--help says what the flag does here: a section of the report (report writes no table3-random.csv)', async () => {
    const help = (await runCli(['report', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/--pooling <kind> Table 3 pooling over games: .* with τ² and I²: a section of the report; reproduce writes reports\/table3-random\.csv\)/);
    const reproduce = (await runCli(['reproduce', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(reproduce).toContain('with τ² and I²: reports/table3-random.csv and a section of the report)');
  });
});
