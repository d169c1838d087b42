import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, ROOT } from '../helpers/cli.js';
import { counts, writeStore } from '../helpers/store.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-cli-analyze-'));
const store = join(dir, 'gpt.sqlite');
writeStore(store, { name: 'gpt', models: [{ id: 'GPT-4', provider: 'openai-chat' }], games: ['prisoners-dilemma', 'stag-hunt'], framings: ['business', 'friend-sharing'] }, [
  { model: 'GPT-4', game: 'prisoners-dilemma', framing: 'business', actions: [...counts(2, 40), null] },
  { model: 'GPT-4', game: 'prisoners-dilemma', framing: 'friend-sharing', actions: counts(38, 40) },
  { model: 'GPT-4', game: 'stag-hunt', framing: 'business', actions: counts(30, 40) },
  { model: 'GPT-4', game: 'stag-hunt', framing: 'friend-sharing', actions: counts(39, 40) },
]);

describe('samegame analyze / plan', () => {
  it('analyze writes the reproduce outputs plus invalid counts, λ̂ and the comparison', async () => {
    const out = join(dir, 'out');
    const r = await runCli(['analyze', store, '--out', out, '--reps', '500', '--compare', join(ROOT, 'data/lore-heydari-2024/rates.csv')]);
    expect(r.stderr).toContain('1 invalid');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no attenuation');
    for (const f of ['table2.csv', 'table3.csv', 'metrics.json', 'verification.md', 'invalid.csv', 'lambda.csv', 'compare.csv', 'compare-headline.csv', 'report.html']) {
      expect(existsSync(join(out, 'reports', f)), f).toBe(true);
    }
    for (const f of ['table3-forest', 'compare-direct-reconstructed']) {
      for (const ext of ['vl.json', 'svg', 'png']) expect(existsSync(join(out, 'figures', `${f}.${ext}`)), `${f}.${ext}`).toBe(true);
    }
    expect(readFileSync(join(out, 'reports', 'report.html'), 'utf8')).toContain('Direct run beside the reconstructed data');
    const cmp = readFileSync(join(out, 'reports', 'compare.csv'), 'utf8').trim().split('\n');
    expect(cmp[0]).toBe('model,game,framing,direct_rate,direct_n,reconstructed_rate,reconstructed_n,difference,diff_lo,diff_hi');
    expect(cmp[1].startsWith('GPT-4,prisoners-dilemma,business,0.05,40,0,300,0.05,')).toBe(true);
    const head = readFileSync(join(out, 'reports', 'compare-headline.csv'), 'utf8').trim().split('\n');
    expect(head[0]).toBe('source,model,R,R_lo,R_hi,shift,shift_lo,shift_hi,attenuation');
    expect(head.slice(1).every((l) => l.endsWith(',1'))).toBe(true);
    expect(head.map((l) => l.split(',').slice(0, 2).join(','))).toEqual(['source,model', 'direct,GPT-4', 'direct,Pooled',
      'reconstructed,GPT-3.5', 'reconstructed,GPT-4', 'reconstructed,LLaMa-2', 'reconstructed,Pooled']);
  });

  it('analyze with the same base and alternative framing is refused', async () => {
    const r = await runCli(['analyze', store, '--base', 'business', '--alt', 'business', '--out', join(dir, 'o3')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--base and --alt must differ');
    expect(existsSync(join(dir, 'o3'))).toBe(false);
  });

  it('analyze of a missing store or a bad run id says so, exit 2', async () => {
    const a = await runCli(['analyze', join(dir, 'nope.sqlite')]);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('no such trial store');
    const b = await runCli(['analyze', store, '--run', '9', '--out', join(dir, 'o2')]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('no run 9 (runs: 1)');
  });

  it('plan from a store reports trials per cell, calls and tokens (mean 105 per stored call)', async () => {
    const r = await runCli(['plan', store, '--target-halfwidth', '0.05', '--reps', '500']);
    expect(r.code).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.startsWith('pooled'))!;
    const [, n, calls, tokens] = line.trim().split(/\s{2,}/);
    expect(Number(calls)).toBe(Number(n) * 4);
    expect(Number(tokens)).toBe(Number(calls) * 105);
  });
});
