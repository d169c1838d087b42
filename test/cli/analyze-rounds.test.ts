/**
 * `analyze STORE --rounds`: on a repeated store the two-framing tables read the chosen rounds
 * (counts equal a hand count of the export's round-1 rows); on a one-shot store --rounds is refused
 * in one line, exit 2, nothing written; --format without --trials is still refused.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { counts, writeStore } from '../helpers/store.js';
import { analyze } from '../../src/index.js';
import { TrialStore } from '../../src/live/store/store.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-analyze-rounds-'));
const store = join(dir, 'two.sqlite');
const oneShot = join(dir, 'one-shot.sqlite');

beforeAll(async () => {
  // the shipped simulated design, one match per cell, in a second framing with the labels swapped
  const design = readFileSync(join(ROOT, 'data', 'designs', 'akata-pd-sim.yaml'), 'utf8').replace(/^trials: 10$/m, 'trials: 1')
    .replace(/^( {2}- \{ id: akata-jf, family: label-perturbation, labels: \[J, F\] \})$/m, '$1\n  - { id: akata-fj, family: label-perturbation, labels: [F, J] }');
  expect(design).toContain('akata-fj');
  writeFileSync(join(dir, 'two.yaml'), design);
  const r = await runCli(['run', join(dir, 'two.yaml'), '--store', store, '-q']);
  expect(r.code, r.stderr).toBe(0);
  writeStore(oneShot, { name: 'gpt', models: [{ id: 'GPT-4', provider: 'openai-chat' }], games: ['prisoners-dilemma'], framings: ['business', 'friend-sharing'] }, [
    { model: 'GPT-4', game: 'prisoners-dilemma', framing: 'business', actions: counts(2, 10) },
    { model: 'GPT-4', game: 'prisoners-dilemma', framing: 'friend-sharing', actions: counts(8, 10) },
  ]);
}, 120_000);

describe('analyze STORE --rounds', () => {
  it('a repeated store is opened once for its run (kind, decisions and probes together), its full integrity check made once', async () => {
    const spy = vi.spyOn(TrialStore, 'openExisting');
    try {
      await analyze({ store, out: join(dir, 'once'), figures: false, verifyStore: true, reps: 50, base: 'akata-jf', alt: 'akata-fj' });
      expect(spy.mock.calls.filter(([, o]) => o?.verify === true)).toHaveLength(1);
      expect(spy.mock.calls.length).toBeLessThanOrEqual(2); // the run, and the look for a sealed plan
    } finally { spy.mockRestore(); }
  });

  it('a repeated store: Table 2 counts the round-1 cooperations of the export, per model, opponent and framing', async () => {
    const file = join(dir, 'export.csv');
    expect((await runCli(['export', store, '--format', 'csv', '--out', file])).code).toBe(0);
    const [head, ...lines] = readFileSync(file, 'utf8').trim().split('\n').map((l) => l.split(','));
    const col = (name: string) => head.indexOf(name);
    const hand = new Map<string, number>();
    for (const l of lines) {
      if (l[col('round')] !== '1' || l[col('action')] !== 'C') continue;
      const opp = l[col('opponent')] === l[col('model')] ? 'self' : l[col('opponent')];
      const k = `${l[col('model')]}|akata-pd [opponent=${opp}]|${l[col('framing')]}`;
      hand.set(k, (hand.get(k) ?? 0) + 1);
    }
    const out = join(dir, 'out');
    const r = await runCli(['analyze', store, '--rounds', '1', '--base', 'akata-jf', '--alt', 'akata-fj', '--reps', '50', '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    const rows = readFileSync(join(out, 'reports', 'table2.csv'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(','));
    expect(rows[0].slice(0, 6)).toEqual(['model', 'game', 'base_rate', 'base_count', 'alt_rate', 'alt_count']);
    expect(rows.length - 1).toBe(10); // 2 models × (self, the other model, 3 strategies)
    for (const row of rows.slice(1)) {
      expect(Number(row[3]), `${row[0]} ${row[1]} base`).toBe(hand.get(`${row[0]}|${row[1]}|akata-jf`) ?? 0);
      expect(Number(row[5]), `${row[0]} ${row[1]} alt`).toBe(hand.get(`${row[0]}|${row[1]}|akata-fj`) ?? 0);
    }
  });

  it('a one-shot store: --rounds refused in one line, exit 2, nothing written', async () => {
    const out = join(dir, 'one-shot-out');
    const r = await runCli(['analyze', oneShot, '--rounds', '1', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--rounds selects rounds of repeated play .*one-shot/);
    expect(existsSync(out)).toBe(false);
  });

  it('coverage of the repeated store: its framing table simulated match by match, both clustered intervals reported', async () => {
    const out = join(dir, 'coverage');
    const r = await runCli(['coverage', store, '--base', 'akata-jf', '--alt', 'akata-fj', '--sims', '3', '--reps', '20', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/clustered cells \(\d+ matches\): each simulation redraws every cell's matches as they are/);
    const rows = readFileSync(join(out, 'reports', 'coverage.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(new Set(rows.map((x) => x[1]))).toEqual(new Set(['cluster-robust', 'cluster-bootstrap']));
  });

  it('--format on a store is still refused (it reads --trials logs)', async () => {
    const r = await runCli(['analyze', store, '--format', 'akata', '--out', join(dir, 'f')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--format applies to --trials FILE/);
  });

  it('--rounds past the last round names the rounds there are (the shipped Akata log has 10; the store 10), exit 2, nothing written', async () => {
    for (const args of [['reproduce', '--trials', 'data/akata-2023/experiment_pd.csv', '--format', 'akata', '--rounds', '11'], ['analyze', store, '--rounds', '11-12'],
      ['analyze', '--trials', 'data/akata-2023/experiment_pd.csv', '--format', 'akata', '--rounds', '11']]) { // the log's per-match aggregates
      const out = join(dir, `past-${args[0]}-${args.length}`);
      const r = await runCli([...args, '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n').filter((l) => !l.startsWith('warning: synthetic'))).toHaveLength(1); // the store is simulated
      expect(r.stderr).toMatch(new RegExp(`--rounds ${args[args.length - 1]}: its rounds are 1–10`));
      expect(existsSync(out)).toBe(false);
    }
  });
});

/**
 * What one-shot paths must not do with repeated play, each one line, exit 2, nothing written:
 * a repeated run's export read back as independent trials; a repeated design scored by
 * log-probabilities (its moves would not be chosen actions); --expect and --compare on a
 * repeated store (they compare one-shot tables).
 */
describe('repeated play refused on the one-shot paths', () => {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-repeated-refusals-'));
  const shipped = readFileSync(join(ROOT, 'data', 'designs', 'akata-pd-sim.yaml'), 'utf8');
  const design = join(dir, 'small.yaml');
  const store = join(dir, 'small.sqlite');

  beforeAll(async () => {
    writeFileSync(design, shipped.replace(/^trials: 10$/m, 'trials: 1'));
    const r = await runCli(['run', design, '--store', store]);
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);

  const refused = (r: { code: number | null; stderr: string }, pattern: RegExp) => {
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
  };

  describe('repeated play on one-shot paths', () => {
    for (const format of ['csv', 'jsonl'] as const) {
      it(`the ${format} export of a repeated run is refused by --trials (its rounds are not independent trials)`, async () => {
        const file = join(dir, `export.${format}`);
        expect((await runCli(['export', store, '--format', format, '--out', file])).code).toBe(0);
        const out = join(dir, `out-${format}`);
        refused(await runCli(['reproduce', '--trials', file, '--out', out]), /export of a repeated run/);
        expect(existsSync(out)).toBe(false);
      });
    }

    it('a repeated design with scoring: logprobs is refused when read, before any call or store', async () => {
      const bad = join(dir, 'logprobs.yaml');
      writeFileSync(bad, shipped.replace(/^scoring: sample$/m, 'scoring: logprobs'));
      const s = join(dir, 'logprobs.sqlite');
      refused(await runCli(['run', bad, '--store', s]), /field "scoring": a repeated game .* needs scoring: sample/);
      expect(existsSync(s)).toBe(false);
    });

    it('--expect and --compare on a repeated store are refused', async () => {
      const out = join(dir, 'cmp');
      refused(await runCli(['analyze', store, '--out', out, '--expect', 'data/lore-heydari-2024/published.csv']), /--expect: .* holds a repeated game/);
      refused(await runCli(['analyze', store, '--out', out, '--compare', 'data/lore-heydari-2024/rates.csv']), /--compare .* repeated game/);
      expect(existsSync(out)).toBe(false);
    });
  });
});
