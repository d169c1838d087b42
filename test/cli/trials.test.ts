import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, ROOT } from '../helpers/cli.js';
import * as checks from '../../src/core/checks.js';
import { reproduceTables } from '../../src/commands/reproduce.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-trials-cli-'));
const FIX = 'test/fixtures/trials';
const metrics = (out: string) => JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8'));
/** metrics.json less what names the input file (its path, hash and kind, and the regenerate command that names it). */
const numbers = (m: { input: Record<string, unknown>; command?: string }) => ({ ...m, command: undefined, input: { cells: m.input.cells, decisions: m.input.decisions } });

describe('--trials: per-trial CSV and JSONL equal a rates file of their counts', () => {
  it('point for point and interval for interval, same seed (4 framings that barely differ, n = 120)', async () => {
    const args = ['--reps', '2000', '--seed', '5', '--attenuation', '0.7', '-q'];
    const outs: { out: string; code: number | null; stdout: string }[] = [];
    // A rates file is read in its rows' order; a per-trial file has no design, so its cells are sorted: the counts, sorted.
    const [head, ...rows] = readFileSync(`${FIX}/counts.csv`, 'utf8').trim().split('\n');
    const key = (r: string) => r.split(',').slice(0, 3).join('\0');
    const sortedCounts = join(tmp(), 'counts.csv');
    writeFileSync(sortedCounts, `${[head, ...rows.sort((a, b) => (key(a) < key(b) ? -1 : 1))].join('\n')}\n`);
    for (const src of [['--data', sortedCounts], ['--trials', `${FIX}/trials.csv`], ['--trials', `${FIX}/trials.jsonl`]]) {
      const out = tmp();
      const r = await runCli(['reproduce', ...src, ...args, '--out', out]);
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
      outs.push({ out, code: r.code, stdout: r.stdout });
    }
    const [counts, csv, jsonl] = outs.map((o) => metrics(o.out));
    expect(numbers(csv)).toEqual(numbers(counts));
    expect(numbers(jsonl)).toEqual(numbers(counts));
    for (const f of ['table2.csv', 'table3.csv', 'family-robustness.csv']) {
      const want = readFileSync(join(outs[0].out, 'reports', f), 'utf8');
      for (const o of outs.slice(1)) expect(readFileSync(join(o.out, 'reports', f), 'utf8'), f).toEqual(want);
    }
    // The same verdicts (a rates file adds the check of reported rates; decision counts are found differently).
    const verdicts = (out: string) => JSON.parse(readFileSync(join(out, 'reports', 'verification.json'), 'utf8')).checks
      .filter((c: { name: string }) => c.name !== 'counts_reproduce_rates')
      .map((c: { name: string; passed: boolean; value: string; failures?: string[] }) => [c.name, c.passed, c.value, c.failures]);
    for (const o of outs.slice(1)) expect(verdicts(o.out)).toEqual(verdicts(outs[0].out));
    expect(counts.input.kind).toBe('observed counts');
    expect(csv.input.kind).toBe('per-trial decisions');
    expect(outs.map((o) => o.code)).toEqual([outs[0].code, outs[0].code, outs[0].code]);
    expect(outs[1].stdout).toBe(outs[0].stdout);
  });

  it('verification fails only where a percentile interval of a robustness score lies below its point (R near 1)', async () => {
    for (const src of [{ data: `${FIX}/counts.csv` }, { trials: `${FIX}/trials.csv` }]) {
      const v = reproduceTables({ ...src, reps: 2000 }).verification;
      for (const c of v.checks.filter((k) => !k.passed)) {
        expect(c.name).toBe('intervals_ordered_and_contain_point');
        for (const f of c.failures ?? []) {
          const m = /^(R|Rfam)\[.*\]: (\S+) not in \[(\S+), (\S+)\]$/.exec(f);
          expect(m, f).not.toBeNull();
          expect(Number(m![4])).toBeLessThan(Number(m![2])); // the interval lies below its point: boundary bias
        }
      }
    }
  });

  // With the `warn` status for boundary bias in the verification (core/checks), this data passes.
  it.runIf('checkStatus' in checks)('barely differing framings pass verification (exit 0), from counts and from trials', async () => {
    for (const src of [['--data', `${FIX}/counts.csv`], ['--trials', `${FIX}/trials.csv`], ['--trials', `${FIX}/trials.jsonl`]]) {
      const r = await runCli(['reproduce', ...src, '--reps', '2000', '-q', '--out', tmp()]);
      expect(r.code, r.stderr).toBe(0);
    }
  });

  it('attenuation defaults to none for per-trial data and the caption says so; the report names the input kind', async () => {
    const out = tmp();
    const r = await runCli(['report', '--trials', `${FIX}/trials.jsonl`, '--reps', '200', '-q', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(join(out, 'reports', 'report.html'), 'utf8');
    expect(html).toContain('without attenuation (a = 1)');
    expect(html).toContain('per-trial decisions');
    expect(html).toContain('--trials test/fixtures/trials/trials.jsonl');
    const c = await runCli(['report', '--trials', `${FIX}/clustered.csv`, '--cluster', 'conversation', '--reps', '200', '-q', '--out', out]);
    expect(c.code, c.stderr).toBe(0);
    const clustered = readFileSync(join(out, 'reports', 'report.html'), 'utf8');
    expect(clustered).toContain('per-trial decisions, clustered by conversation');
    expect(clustered).toContain('clustered bootstrap: clustered cells redraw whole clusters');
    expect(clustered).toContain('--cluster conversation');
  });
});

describe('--trials: bad input is one line, exit 2, nothing written', () => {
  const cases: [string, string, string, string][] = [
    ['unknown action', 'bad.csv', 'model,game,framing,action\nA,G,business,C\nA,G,friend-sharing,maybe\n', ':3: field "action": "maybe" is not C or D'],
    ['probability outside [0, 1]', 'bad.jsonl', '{"model":"A","game":"G","framing":"business","p_cooperate":0.2}\n{"model":"A","game":"G","framing":"friend-sharing","p_cooperate":1.01}\n',
      ':2: field "p_cooperate": "1.01" is not a probability in [0, 1]'],
    ['missing column', 'bad.csv', 'model,game,action\nA,G,C\n', ':1: field "framing": required column is missing from the header; the header has "model", "game", "action"'],
    ['empty file', 'bad.csv', '', ': no data rows'],
    ['mixed outcome columns', 'bad.jsonl', '{"model":"A","game":"G","framing":"business","action":"C"}\n{"model":"A","game":"G","framing":"friend-sharing","p_cooperate":0.5}\n',
      ':2: field "p_cooperate": mixed outcome columns: this file gives "action", this row "p_cooperate" (use one outcome column for every row)'],
  ];
  it.each(cases)('%s', async (_n, name, text, want) => {
    for (const command of ['reproduce', 'report', 'audit']) {
      const out = tmp();
      const file = join(out, name);
      writeFileSync(file, text);
      const r = await runCli([command, '--trials', file, '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`samegame: ${file}${want}\n`);
      expect(readdirSync(out)).toEqual([name]);
    }
  });
  it('--data with --trials, and --cluster without --trials, are refused', async () => {
    const out = tmp();
    const both = await runCli(['reproduce', '--data', `${FIX}/counts.csv`, '--trials', `${FIX}/trials.csv`, '--out', out]);
    expect([both.code, both.stderr]).toEqual([2, 'samegame: --data and --trials cannot be used together: give one input\n']);
    const lone = await runCli(['report', '--cluster', 'conv', '--out', out]);
    expect([lone.code, lone.stderr]).toEqual([2, 'samegame: --cluster and --factor apply to per-trial input: give --trials FILE\n']);
    expect(readdirSync(out)).toEqual([]);
  });
  it('a cell-count shortfall names the missing cells (rates and per-trial input)', async () => {
    const dir = tmp();
    const rates = join(dir, 'short.csv');
    writeFileSync(rates, 'model,game,framing,n,cooperate\nA,G,business,10,3\nA,G,friend-sharing,10,4\nA,G,neutral,10,5\nA,H,business,10,3\nA,H,friend-sharing,10,6\n');
    const trials = join(dir, 'short.csv'.replace('.csv', '-trials.jsonl'));
    writeFileSync(trials, ['business', 'friend-sharing', 'neutral'].flatMap((f) => ['G', ...(f === 'neutral' ? [] : ['H'])].map((g) =>
      JSON.stringify({ model: 'A', game: g, framing: f, action: 'C' }))).join('\n'));
    for (const src of [{ data: rates }, { trials }]) {
      const cell = reproduceTables({ ...src, reps: 100 }).verification.checks.find((c) => c.name === 'cell_count')!;
      expect(cell.passed).toBe(false);
      expect(cell.failures).toEqual(['5 ≠ 6; missing: A / H / neutral']);
    }
  });
  it('a missing planned framing names the framings the file has', async () => {
    const r = await runCli(['reproduce', '--data', `${FIX}/counts.csv`, '--alt', 'friends', '--out', tmp()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the file\'s framings are "business", "friend-sharing", "neutral", "team"');
  });
});

describe('audit by input kind', () => {
  it('counts given: the audit says so and skips the reading-error analysis; --reading-error 0 is accepted', async () => {
    const out = tmp();
    const r = await runCli(['audit', '--data', `${FIX}/counts.csv`, '--reps', '200', '--search-reps', '100', '--reading-error', '0', '-q', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('counts given, no reading error');
    const md = readFileSync(join(out, 'reports', 'audit.md'), 'utf8');
    expect(md).toContain('The counts were given (observed counts), not read off a figure: there is no reading error to analyse');
    const json = JSON.parse(readFileSync(join(out, 'reports', 'audit.json'), 'utf8'));
    expect(json.input.kind).toBe('observed counts');
    expect(json.reading_error).toMatchObject({ counts_given: true, reconstructed_cells: 0, ranges: [] });
  });
  it('a mixed file moves only its reconstructed cells under reading error', async () => {
    const out = tmp();
    const file = join(out, 'mixed.csv');
    writeFileSync(file, 'model,game,framing,n,rate,cooperate\nA,G,business,300,,30\nA,G,friend-sharing,300,0.300,\nB,G,business,300,,60\nB,G,friend-sharing,300,,90\n');
    const r = await runCli(['audit', '--data', file, '--reps', '200', '--search-reps', '100', '-q', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(out, 'reports', 'audit.json'), 'utf8'));
    expect(json.input.kind).toBe('observed counts and reconstructed from rates');
    expect(json.reading_error.reconstructed_cells).toBe(1);
    const moved = new Set(json.reading_error.ranges.flatMap((x: { argmin: { cell: string }[]; argmax: { cell: string }[] }) => [...x.argmin, ...x.argmax].map((c) => c.cell)));
    expect([...moved]).toEqual(['A / G / friend-sharing']);
  });
  it('per-trial decisions can be audited as observed counts; clustered ones are refused in one line', async () => {
    const ok = await runCli(['audit', '--trials', `${FIX}/trials.csv`, '--reps', '200', '--search-reps', '100', '-q', '--out', tmp()]);
    expect(ok.code, ok.stderr).toBe(0);
    const out = tmp();
    const no = await runCli(['audit', '--trials', `${FIX}/clustered.csv`, '--cluster', 'conversation', '--out', out]);
    expect(no.code).toBe(2);
    expect(no.stderr).toMatch(/^samegame: test\/fixtures\/trials\/clustered\.csv: the audit needs counts of independent binary decisions; it holds per-trial decisions, clustered by conversation/);
    expect(existsSync(join(out, 'reports'))).toBe(false);
  });
});

/**
 * The input limits through the CLI (README "Limits", "Names"): a directory given as a file and a
 * name over the length limit end with one line, exit 2, nothing written — the name refused before
 * any work (a 2,000-character name used to be drawn into figures 0.7 GB larger).
 */
describe('per-trial input over its limits on the command line', () => {
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
});
