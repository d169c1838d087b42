/**
 * `analyze STORE --names FILE` on a context-enrichment run: the terminal table, the figure and the
 * report show the models' display names; the CSV files keep the ids and the numbers of the same
 * analysis without names and add a model_name column; an id that names nothing warns (file, line, nearest id); two
 * models given one name are refused in one line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../../helpers/cli.js';

const CSVS = ['selective.csv', 'selective-paraphrase.csv', 'selective-equivalence.csv', 'selective-cells.csv', 'selective-imputation.csv'];

let dir: string;
let store: string;
let plain: CliResult;
let named: CliResult;
const read = (out: string, file: string) => readFileSync(join(dir, out, file), 'utf8');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-selnames-'));
  store = join(dir, 'h.sqlite');
  const run = await runCli(['run', 'data/designs/hospital-transfer-sim.yaml', '--store', store, '-q']);
  expect(run.code, run.stderr).toBe(0);
  writeFileSync(join(dir, 'names.csv'), 'id,name\nSim-Sol,Sol the Sim\nSim-Terr,Typo\n');
  plain = await runCli(['analyze', store, '--out', join(dir, 'plain'), '--reps', '200']);
  named = await runCli(['analyze', store, '--out', join(dir, 'named'), '--reps', '200', '--names', join(dir, 'names.csv')]);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('analyze --names on a context-enrichment store', () => {
  it('shows the display name in the terminal table, the figure and the report', () => {
    expect(plain.code, plain.stderr).toBe(0);
    expect(named.code, named.stderr).toBe(0);
    expect(plain.stdout).not.toContain('Sol the Sim');
    // The same table, the model's id replaced by its name (the column widened to the longer name).
    const cells = (t: string) => t.split('\n').slice(2).map((l) => l.trim().split(/\s{2,}/));
    expect(cells(named.stdout)).toEqual(cells(plain.stdout).map((r) => (r[0] === 'Sim-Sol' ? ['Sol the Sim', ...r.slice(1)] : r)));
    expect(cells(named.stdout).filter((r) => r[0] === 'Sol the Sim')).toHaveLength(5);
    const figure = read('named', 'figures/selective-plane.vl.json');
    expect(figure).toContain('"Sol the Sim"');
    expect(figure).not.toContain('"Sim-Sol"');
    expect(read('named', 'reports/report.html')).toContain('Sol the Sim');
    expect(read('plain', 'reports/report.html')).not.toContain('Sol the Sim');
  });

  it('keeps the ids and the numbers in the CSV files and adds a model_name column; selective.json a names map and --names in its command', () => {
    for (const f of CSVS) {
      const [head, ...rows] = read('named', `reports/${f}`).trimEnd().split('\n');
      const [plainHead, ...plainRows] = read('plain', `reports/${f}`).trimEnd().split('\n');
      expect(head, f).toBe(`${plainHead},model_name`);
      expect(rows, f).toEqual(plainRows.map((r) => `${r},${r.startsWith('Sim-Sol,') ? 'Sol the Sim' : r.split(',')[0]}`));
    }
    const json = JSON.parse(read('named', 'reports/selective.json')) as { command: string; names: Record<string, string> };
    expect(json.command).toContain('--names');
    expect(json.names).toEqual({ 'Sim-Sol': 'Sol the Sim', 'Sim-Terr': 'Typo' });
    expect(read('plain', 'reports/selective.json')).not.toContain('"names"');
  });

  it('warns once for an id that names nothing, with its file, line and the nearest id', () => {
    const warnings = named.stderr.split('\n').filter((l) => l.includes('display name for'));
    expect(warnings).toEqual([expect.stringContaining(`${join(dir, 'names.csv')}:3: display name for "Sim-Terr" ignored`)]);
    expect(warnings[0]).toContain('did you mean "Sim-Terra"');
  });

  it('refuses two models given one name in one line, writing nothing', async () => {
    writeFileSync(join(dir, 'clash.csv'), 'id,name\nSim-Sol,Same\nSim-Terra,Same\n');
    const r = await runCli(['analyze', store, '--out', join(dir, 'clash'), '--reps', '50', '--names', join(dir, 'clash.csv')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n').filter((l) => !l.startsWith('warning:'))).toHaveLength(1);
    expect(r.stderr).toContain('Same');
    expect(() => readFileSync(join(dir, 'clash', 'reports', 'selective.csv'))).toThrow();
  });
});
