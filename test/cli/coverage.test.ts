import { existsSync, mkdtempSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runInProcess as run } from '../helpers/in-process.js';
import { refusedInOneLine } from '../helpers/refusals.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-coverage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('samegame coverage', () => {
  it('simulates the shipped design: coverage.csv with exactly its columns, the figure, a terminal table and progress on stderr', async () => {
    const out = join(dir, 'shipped');
    const r = await runCli(['coverage', '--out', out, '--sims', '4', '--reps', '100', '--truth', 'equal']);
    expect(r.code, r.stderr).toBe(0);
    const csv = readFileSync(join(out, 'reports', 'coverage.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('statistic,method,nominal,coverage,mc_se,mean_width,truth,coverage_lo,coverage_hi');
    expect(csv).toHaveLength(1 + 4 * 2 * 2); // (3 models + Pooled) × (R, shift) × (percentile, bca)
    expect(csv.filter((l) => l.startsWith('R[')).every((l) => l.split(',')[6] === '1')).toBe(true); // equal framings: R = 1
    for (const ext of ['vl.json', 'svg', 'png']) expect(existsSync(join(out, 'figures', `coverage.${ext}`)), ext).toBe(true);
    expect(r.stdout).toMatch(/^Statistic\s+Interval\s+Coverage/m);
    expect(r.stderr).toContain('coverage: 4/4 simulations');
    const header = (t: string) => t.split('\n').filter((l) => l.startsWith('Coverage of the 95 % intervals'));
    expect([...header(r.stdout), ...header(r.stderr)]).toHaveLength(1); // the header once, on stdout
    expect(r.stderr).toContain('simulating 4 data sets of this design (24 cells, n = 300)');
  });

  it('refuses --sims and --reps beyond their limits with one line naming the flag and the limit, writing nothing', async () => {
    const out = join(dir, 'refused');
    const s = await runCli(['coverage', '--out', out, '--sims', '20000']);
    expect(s.code).toBe(2);
    expect(s.stderr).toContain('--sims: "20000" is not an integer from 1 to 10000');
    const b = await runCli(['coverage', '--out', out, '--reps', '200000']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--reps: "200000" is not an integer from 1 to 100000');
    const both = await runCli(['coverage', 'x.sqlite', '--data', 'y.csv', '--out', out]);
    expect(both.code).toBe(2);
    expect(both.stderr.trim()).toBe('samegame: give one input: --data FILE, --trials FILE or a STORE');
    expect(existsSync(out)).toBe(false);
  });
});

/** --out is checked before the input is read and before any simulation; its error is one line. */
describe('coverage --out checked before any work', () => {
  const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-flags-'));

  const oneLine = refusedInOneLine;

  describe('coverage --out', () => {
    it('is checked before the input is read and before any simulation (no title or progress line)', async () => {
      const d = tmp();
      writeFileSync(join(d, 'file'), 'x');
      oneLine(await run(['coverage', '--out', join(d, 'file', 'sub'), '--sims', '2', '--reps', '20']), /^samegame: --out .*exists and is not a directory/);
      mkdirSync(join(d, 'o'));
      writeFileSync(join(d, 'o', 'reports'), 'x');
      oneLine(await run(['coverage', '--out', join(d, 'o'), '--sims', '2', '--reps', '20']), /^samegame: --out .*reports" exists and is not a directory/);
    });
  });
});
