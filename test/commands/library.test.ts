import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, readRates, reproduce, UserError } from '../../src/index.js';
import { parseDecimal, roundedCount, unitsOf } from '../../src/core/decimal.js';
import { packageRoot, SHIPPED_RATES } from '../../src/core/paths.js';
import { counts, writeStore, type CellSpec } from '../helpers/store.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { wrappedCommand } from '../../src/core/command-line.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-library-'));
const SHIPPED = join(packageRoot, SHIPPED_RATES);

/** A small two-framing store: model M plays two canonical games in business and friend-sharing. */
function smallStore(dir: string): string {
  const design = { name: 'small', models: [{ id: 'M', provider: 'simulated' }], games: ['prisoners-dilemma', 'stag-hunt'], framings: ['business', 'friend-sharing'] };
  const cells: CellSpec[] = [
    { model: 'M', game: 'prisoners-dilemma', framing: 'business', actions: counts(3, 20) },
    { model: 'M', game: 'prisoners-dilemma', framing: 'friend-sharing', actions: counts(15, 20) },
    { model: 'M', game: 'stag-hunt', framing: 'business', actions: counts(10, 20) },
    { model: 'M', game: 'stag-hunt', framing: 'friend-sharing', actions: counts(19, 20) },
  ];
  const path = join(dir, 'small.sqlite');
  writeStore(path, design, cells);
  return path;
}

describe('the library', () => {
  it('readRates(path) works without options (the planned pair business / friend-sharing)', async () => {
    const input = readRates(SHIPPED);
    expect(input.rows).toHaveLength(24);
    expect(input.table.cells).toHaveLength(24);
  });

  it('public results are JSON-serializable (no BigInt); rates keep exact decimal arithmetic', async () => {
    const input = readRates(SHIPPED);
    const back = JSON.parse(JSON.stringify(input)) as { rows: { rate: { text: string; units: string; decimals: number } }[] };
    expect(back.rows[0].rate).toEqual({ text: '0.087', value: 0.087, decimals: 3, units: '87' });
    const res = await reproduce({ dryRun: true, reps: 100, figures: false });
    expect(() => JSON.stringify(res)).not.toThrow();
    // 0.087 · 300 = 26.099999… in binary floating point; the exact count is 26. A rate with more
    // digits than a double holds still rounds exactly: 0.12345678901234567890 · 10^20.
    expect(roundedCount(parseDecimal('0.087')!, 300)).toBe(26);
    expect(unitsOf(parseDecimal('0.12345678901234567890')!)).toBe(12345678901234567890n);
    expect(roundedCount(parseDecimal('0.5')!, 3)).toBe(2);
  });

  it('analyze: the result is tagged by kind (a switch narrows it); a store and logs at once are refused with one line', async () => {
    const store = smallStore(tmp());
    const res = await analyze({ store, reps: 200, dryRun: true, figures: false });
    expect(res.kind).toBe('two-framing');
    if (res.kind !== 'two-framing') return;
    expect(res.table3.map((r) => r.model)).toEqual(['M', 'Pooled']);
    expect(() => JSON.stringify(res)).not.toThrow();
    await expect(analyze({ store, trials: ['x.jsonl'], format: 'akata', dryRun: true })).rejects.toThrow(UserError);
    await expect(analyze({ store, trials: ['x.jsonl'], format: 'akata', dryRun: true })).rejects.toThrow(/give a trial store, --trials FILE --format NAME or --aggregates FILE: one of them/);
    await expect(analyze({ trials: ['x.csv'], dryRun: true })).rejects.toThrow(/--format/);
  });
});

describe('analyze --compare: what was written is described and recorded', () => {
  const dir = tmp();
  const store = smallStore(dir);
  let r: CliResult;
  let metrics: Record<string, unknown>;
  beforeAll(async () => {
    r = await runCli(['analyze', store, '--out', join(dir, 'a'), '--reps', '300', '--compare', SHIPPED_RATES, '--map-model', 'M=GPT-4', '-q']);
    metrics = JSON.parse(readFileSync(join(dir, 'a', 'reports', 'metrics.json'), 'utf8')) as Record<string, unknown>;
  });

  it('two_empirical_tables names the comparison tables the user asked for (not "no external comparison table")', async () => {
    expect(r.code, r.stderr).toBe(0);
    const v = JSON.parse(readFileSync(join(dir, 'a', 'reports', 'verification.json'), 'utf8')) as { checks: { name: string; description: string; value: string }[] };
    const c = v.checks.find((k) => k.name === 'two_empirical_tables')!;
    expect(readdirSync(join(dir, 'a', 'reports'))).toEqual(expect.arrayContaining(['compare.csv', 'compare-headline.csv']));
    expect(c.description).toBe('the report has exactly two empirical tables; its comparison tables (compare, compare-headline) are the ones requested with --compare, and no other');
    expect(c.description).not.toContain('no external comparison table');
  });

  it('metrics.json and the report record --compare and --map-model in the regenerate command', async () => {
    expect(metrics.command).toBe(`samegame analyze ${store} --run 1 --base business --alt friend-sharing --attenuation 1 --seed 20240818 --reps 300 --compare ${SHIPPED_RATES} --map-model M=GPT-4`);
    expect(metrics.compare).toMatchObject({ path: SHIPPED_RATES, model_map: { M: 'GPT-4' } });
    const html = readFileSync(join(dir, 'a', 'reports', 'report.html'), 'utf8');
    expect(html).toContain(`<pre><code>${wrappedCommand(metrics.command as string)}</code></pre>`);
    expect(wrappedCommand(metrics.command as string).split(' \\\n  ').join(' ')).toBe(metrics.command);
  });

  it('running the recorded command (with another --out) writes the same tables', async () => {
    const words = spawnSync('sh', ['-c', `printf '%s\\n' ${metrics.command as string}`], { encoding: 'utf8' }).stdout.split('\n').slice(1, -1);
    const again = await runCli([...words, '--out', join(dir, 'b'), '-q']);
    expect(again.code, again.stderr).toBe(0);
    for (const f of ['metrics.json', 'table3.csv', 'compare.csv', 'compare-headline.csv', 'lambda.csv']) {
      expect(readFileSync(join(dir, 'b', 'reports', f), 'utf8'), f).toBe(readFileSync(join(dir, 'a', 'reports', f), 'utf8'));
    }
  });
});
