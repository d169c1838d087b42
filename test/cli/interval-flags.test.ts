import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

/** --simultaneous, --published-method and the R = 1 line, as the CLI runs them (docs/methods.md §8.5, §8.6, §16). */
const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-interval-flags-'));

describe('reproduce --simultaneous', () => {
  it('shows the per-model bands, says so, keeps the published comparison pointwise (0 differ) and regenerates with the flag', async () => {
    const out = tmp();
    const r = await runCli(['reproduce', '--simultaneous', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/per-model rows: simultaneous 95 % sup-t bands \(c = \d\.\d\d for R, \d\.\d\d for the shift\), Pooled pointwise/);
    expect(r.stderr).toMatch(/84 published numbers: .*, 0 differ\./);
    expect(r.stderr).toMatch(/R = 1 test \(G-test, pooled\): G = 3095\.20, df = 12, p < 0\.001: framing changes behaviour\./);
    const m = JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8'));
    expect(m.settings.simultaneous).toMatch(/sup-t/);
    expect(m.command).toMatch(/ --simultaneous/);
    expect(readFileSync(join(out, 'reports', 'report.html'), 'utf8')).toMatch(/simultaneous 95 % bands \(sup-t over the 3 models/);
  }, 120_000);
});

describe('--published-method', () => {
  it('reproduce --interval bca compares percentile endpoints (the publication\'s): 0 differ, and says so', async () => {
    const out = tmp();
    const r = await runCli(['reproduce', '--interval', 'bca', '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    const m = JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8'));
    expect(m.reproduction.counts.differs).toBe(0);
    expect(m.reproduction).toMatchObject({ compared_methods: ['percentile'], shown_method: 'bca' });
  }, 120_000);

  it('without published values, and with an unknown method, is refused with one line', async () => {
    const r = await runCli(['reproduce', '--data', 'data/lore-heydari-2024/rates.csv', '--published-method', 'bca', '--out', tmp()]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/--published-method sets how published values are judged: give them with --expect FILE/);
    const bad = await runCli(['reproduce', '--published-method', 'studentized', '--out', tmp()]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--published-method/);
  }, 120_000);
});

describe('--interval cluster-robust', () => {
  it('names the default for clustered data: analyze of a repeated store writes what the default writes; reproduce takes it (percentile for unclustered rates)', async () => {
    const dir = tmp();
    const store = join(dir, 'r.sqlite');
    const run = await runCli(['run', join(ROOT, 'data', 'designs', 'akata-pd-sim.yaml'), '--store', store, '-q']);
    expect(run.code, run.stderr).toBe(0);
    const a = await runCli(['analyze', store, '--out', join(dir, 'a'), '-q']);
    const b = await runCli(['analyze', store, '--interval', 'cluster-robust', '--out', join(dir, 'b'), '-q']);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    for (const f of ['models.csv', 'cells.csv']) expect(readFileSync(join(dir, 'b', 'reports', f), 'utf8')).toBe(readFileSync(join(dir, 'a', 'reports', f), 'utf8'));
    const p = await runCli(['reproduce', '--interval', 'cluster-robust', '--reps', '200', '--out', join(dir, 'p'), '-q']);
    await runCli(['reproduce', '--reps', '200', '--out', join(dir, 'q'), '-q']);
    expect(p.code, p.stderr).toBe(0);
    const tables = (d: string) => readFileSync(join(dir, d, 'reports', 'table3.csv'), 'utf8');
    expect(tables('p')).toBe(tables('q'));
  }, 120_000);
});
