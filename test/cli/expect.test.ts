import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, ROOT, type CliResult } from '../helpers/cli.js';
import { counts, writeStore, type CellSpec } from '../helpers/store.js';
import { readRates } from '../../src/sources/rates-csv.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-expect-'));
const SHIPPED = readFileSync(join(ROOT, 'data/lore-heydari-2024/published.csv'), 'utf8');
const HEADER = 'table,model,game,statistic,published,computed,difference,tolerance,verdict';

describe('reproduce --expect with a planted wrong value', () => {
  const dir = tmp();
  const planted = join(dir, 'planted.csv');
  writeFileSync(planted, SHIPPED.replace('table3,GPT-4,,shift,0.377,', 'table3,GPT-4,,shift,0.387,'));
  let r: CliResult;
  beforeAll(async () => { r = await runCli(['reproduce', '--expect', planted, '--out', dir]); });

  it('exits 3 naming the check; exactly that row differs in reports/reproduction.csv', async () => {
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr.trim().split('\n').at(-1)).toBe('samegame: verification failed: published_values_reproduced');
    expect(r.stderr).not.toContain('comparing with the published values in data/'); // --expect replaces the default
    const lines = readFileSync(join(dir, 'reports', 'reproduction.csv'), 'utf8').trim().split('\n');
    expect(lines[0]).toBe(HEADER);
    expect(lines).toHaveLength(85);
    const differs = lines.filter((l) => l.endsWith(',differs'));
    expect(differs).toHaveLength(1);
    expect(differs[0]).toBe('table3,GPT-4,,shift,0.387,0.377416666667,-0.00958333333333,0.0005,differs'); // 12 significant digits (README)
    const v = JSON.parse(readFileSync(join(dir, 'reports', 'verification.json'), 'utf8'));
    expect(v.checks.find((c: { name: string }) => c.name === 'published_values_reproduced')).toMatchObject({ passed: false });
  });

  it('the report shows the row in red and the sentence counts it', async () => {
    const html = readFileSync(join(dir, 'reports', 'report.html'), 'utf8');
    expect(html).toContain('<td>Table 3</td><td>GPT-4</td><td></td><td>shift</td><td class="num">0.387</td><td class="num">0.37742</td><td class="num">-0.00958</td><td class="num">0.00050</td><td class="v-differs">differs</td>');
    expect(html).toMatch(/84 published numbers: \d+ exact, \d+ within Monte Carlo error \([^)]*\), 1 differ \(Table 3 GPT-4 shift: 0\.387 published, 0\.37742 computed\)\./);
    expect(readdirSync(join(dir, 'figures'))).toContain('reproduction.svg');
  });

  it('`samegame report --expect` shows it too, and exits 3', async () => {
    const out = tmp();
    const rr = await runCli(['report', '--expect', planted, '--out', out, '-q']);
    expect(rr.code).toBe(3);
    expect(readFileSync(join(out, 'reports', 'report.html'), 'utf8')).toContain('<td class="v-differs">differs</td>');
  });
});

describe('published values none of which the computation has', () => {
  it('exit 3 (missing), no reproduction figure and no renderer warning (nothing to plot)', async () => {
    const out = tmp();
    const f = join(out, 'all-missing.csv');
    writeFileSync(f, 'table,model,game,statistic,published,reps\nfamily,GPT-9,,R,0.651,\n');
    const r = await runCli(['reproduce', '--expect', f, '--out', out, '-q']);
    expect(r.code).toBe(3);
    // The one warning is the sentence naming the missing number (printed under -q); no renderer warning.
    expect(r.stderr.split('\n').filter((l) => /warning/.test(l))).toEqual(['warning: 1 published numbers: 0 exact, 0 within Monte Carlo error, 0 differ, 1 missing (Family robustness GPT-9 R).']);
    expect(readdirSync(join(out, 'figures')).filter((n) => n.startsWith('reproduction'))).toEqual([]);
    expect(readFileSync(join(out, 'reports', 'reproduction.csv'), 'utf8')).toMatch(/family,GPT-9,,R,0\.651,,,,missing/);
  });
});

describe('the verdict flags', () => {
  it('--verdict-alpha and --published-reps reach the report, metrics.json and the regenerate command', async () => {
    const out = tmp();
    // The shipped file named: by default a run with other replicates compares no interval endpoint.
    const r = await runCli(['reproduce', '--reps', '2000', '--verdict-alpha', '0.1', '--published-reps', '4000', '--expect', 'data/lore-heydari-2024/published.csv', '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    const m = JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8'));
    // The shipped file's reps column (10,000 for Table 3) wins over --published-reps; B_c is --reps.
    expect(m.reproduction).toMatchObject({ published: 'data/lore-heydari-2024/published.csv', alpha: 0.1, k: 16, computed_reps: 2000, published_reps: [10_000] });
    expect(m.reproduction.z).toBeCloseTo(2.7344, 4); // scipy.stats.norm.ppf(1 − 0.1/32) = 2.73436…
    expect(m.command).toContain('--verdict-alpha 0.1 --published-reps 4000');
    const html = readFileSync(join(out, 'reports', 'report.html'), 'utf8');
    expect(html).toContain('<caption>reports/reproduction.csv. Family-wise α = 0.1 over k = 16 interval endpoints: z = Φ⁻¹(1 − α/(2k)) = 2.734; B_c = 2,000 computed, B_p = 10,000 published replicates.</caption>');
  });
  it('--published-reps applies where a row has no reps', async () => {
    const out = tmp();
    const f = join(out, 'no-reps.csv');
    writeFileSync(f, SHIPPED.replace(/,10000,/g, ',,'));
    const r = await runCli(['reproduce', '--reps', '2000', '--published-reps', '4000', '--expect', f, '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8')).reproduction).toMatchObject({ alpha: 0.05, published_reps: [4000] });
  });
  it.each([
    [['--verdict-alpha', '0'], "--verdict-alpha"], [['--verdict-alpha', '1'], '--verdict-alpha'], [['--published-reps', '0'], '--published-reps'], [['--published-reps', '2.5'], '--published-reps'],
  ])('a bad value (%j): the flag named, exit 2, nothing written', async (flags, flag) => {
    const out = join(tmp(), 'o');
    const r = await runCli(['reproduce', ...flags, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')[0]).toContain(`${flag}: "${flags[1]}" is not`);
    expect(existsSync(out)).toBe(false);
  });
  it.each([
    [['--data', 'data/lore-heydari-2024/rates.csv', '--verdict-alpha', '0.01'], '--verdict-alpha'],
    [['--data', 'data/lore-heydari-2024/rates.csv', '--published-reps', '4000'], '--published-reps'],
  ])('a verdict flag with nothing to compare (%j): refused in one line, nothing written', async (flags, flag) => {
    const out = join(tmp(), 'o');
    const r = await runCli(['reproduce', ...flags, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`samegame: ${flag} sets how published values are judged: give them with --expect FILE`]);
    expect(existsSync(out)).toBe(false);
  });
});

describe('bad published files: one line, exit 2, nothing written', () => {
  const dir = tmp();
  const cases: [string, string, string][] = [
    ['unknown table', 'table,model,game,statistic,published\ntable3,GPT-4,,R,0.651\ntable9,GPT-4,,R,0.651\n', ':3: field "table": "table9" is not a table (one of table2, table3, family)'],
    ['unknown statistic', 'table,model,game,statistic,published\ntable3,GPT-4,,median,0.651\n', ':2: field "statistic": "median" is not a column of table3'],
    ['non-number', 'table,model,game,statistic,published\ntable3,GPT-4,,R,n/a\n', ':2: field "published": "n/a" is not a number'],
    ['duplicate row', 'table,model,game,statistic,published\ntable3,GPT-4,,R,0.651\ntable3,GPT-4,,R,0.652\n', ':3: field "statistic": duplicate published value'],
    ['wrong header', 'table,model,game,statistic,value\ntable3,GPT-4,,R,0.651\n', ':1: field "value": the header must begin with table,model,game,statistic,published'],
  ];
  it.each(cases)('%s (reproduce, report)', async (name, text, want) => {
    const f = join(dir, `${name.replace(/ /g, '-')}.csv`);
    writeFileSync(f, text);
    for (const command of ['reproduce', 'report']) {
      const out = join(dir, `${command}-${name.replace(/ /g, '-')}`);
      const r = await runCli([command, '--expect', f, '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toContain(`samegame: ${f}${want}`);
      expect(existsSync(out)).toBe(false);
    }
  });
});

describe('analyze --expect', () => {
  // A store of the reconstructed counts (300 trials per cell): with a = 0.70 it computes Table 3 exactly as reproduce does.
  const dir = tmp();
  const rates = readRates(join(ROOT, 'data/lore-heydari-2024/rates.csv'), { base: 'business', alt: 'friend-sharing' });
  const cells: CellSpec[] = rates.table.cells.map((c) => ({ ...(c.key as { model: string; game: string; framing: string }), actions: counts((c.obs as { x: number }).x, 300) }));
  const lv = (f: string) => [...new Set(rates.table.cells.map((c) => c.key[f]))];
  writeStore(join(dir, 'recon.sqlite'), { name: 'recon', models: lv('model').map((id) => ({ id })), games: lv('game'), framings: lv('framing') }, cells);
  const table3Only = join(dir, 'table3.csv');
  writeFileSync(table3Only, [SHIPPED.split('\n')[0], ...SHIPPED.split('\n').filter((l) => l.startsWith('table3,')), 'table3,GPT-5,,R,0.9,,x', ''].join('\n'));

  it('sets the published values beside the direct run: Table 3 as reproduce judges it, an unknown model missing, exit 3', async () => {
    const out = join(dir, 'out');
    const r = await runCli(['analyze', join(dir, 'recon.sqlite'), '--attenuation', '0.7', '--expect', table3Only, '--out', out, '-q']);
    expect(r.code).toBe(3);
    const lines = readFileSync(join(out, 'reports', 'reproduction.csv'), 'utf8').trim().split('\n');
    const committed = readFileSync(join(ROOT, 'reports', 'reproduction.csv'), 'utf8').trim().split('\n').filter((l) => l.startsWith('table3,'));
    expect(lines.slice(1, -1)).toEqual(committed);
    expect(lines.at(-1)).toBe('table3,GPT-5,,R,0.9,,,,missing');
    expect(readFileSync(join(out, 'reports', 'report.html'), 'utf8')).toContain('id="reproduction"');
  });

  it('--verdict-alpha and --published-reps reach metrics.json and the regenerate command', async () => {
    const out = join(dir, 'out-flags');
    const noReps = join(dir, 'no-reps.csv');
    writeFileSync(noReps, readFileSync(table3Only, 'utf8').replace(/,10000,/g, ',,'));
    const r = await runCli(['analyze', join(dir, 'recon.sqlite'), '--attenuation', '0.7', '--reps', '1000', '--verdict-alpha', '0.2', '--published-reps', '5000', '--expect', noReps, '--out', out, '-q']);
    expect(r.code).toBe(3); // the unknown model is missing
    const m = JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8'));
    expect(m.reproduction).toMatchObject({ alpha: 0.2, k: 16, computed_reps: 1000, published_reps: [5000] });
    expect(m.command).toContain('--verdict-alpha 0.2 --published-reps 5000');
  });

  it('a bad published file: one line, exit 2, nothing written', async () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'table,model,game,statistic,published\ntable3,GPT-4,,R,0.6.5\n');
    const out = join(dir, 'bad-out');
    const r = await runCli(['analyze', join(dir, 'recon.sqlite'), '--expect', bad, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`samegame: ${bad}:2: field "published": "0.6.5" is not a number`);
    expect(existsSync(out)).toBe(false);
  });
});
