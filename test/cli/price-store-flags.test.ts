/**
 * `plan STORE` takes the store as every other command does (the old `plan --store` still works, with
 * a one-line deprecation note) and has -q; `run --price IN,OUT` and `plan --price` share one spelling
 * (the old `run --price-in/--price-out` still work, with a note).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counts, writeStore } from '../helpers/store.js';
import { runInProcess as run } from '../helpers/in-process.js';
import { refusalKit } from '../helpers/refusals.js';
import { cliMsg } from '../../src/cli/messages.js';
import { commandsMsg } from '../../src/commands/messages.js';

let dir: string, store: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sg-flags-'));
  store = join(dir, 'pilot.sqlite');
  // Every stored trial used 100 input and 5 output tokens (test/helpers/store.ts).
  writeStore(store, { name: 'pilot' }, ['m1', 'm2'].flatMap((model) => ['prisoners-dilemma', 'snowdrift'].flatMap((game) =>
    ['business', 'friend-sharing'].map((framing, i) => ({ model, game, framing, actions: counts(10 + 8 * i, 40) })))));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PLAN = ['--target-halfwidth', '0.1', '--reps', '200'];
const lines = (s: string) => s.split('\n').filter((l) => l !== '');
/** The pooled row of the plan: calls and cost in dollars. */
const pooledRow = (stdout: string) => {
  const cols = stdout.split('\n').find((l) => l.startsWith('pooled'))!.trim().split(/\s{2,}/);
  return { calls: Number(cols[2]), tokens: Number(cols[3]), cost: Number(cols[4].replace('$', '')) };
};

describe('plan takes the store as its argument', () => {
  it('plan STORE prints what plan --store STORE prints; --store adds one deprecation line on stderr', async () => {
    const arg = await run(['plan', store, ...PLAN]);
    const flag = await run(['plan', '--store', store, ...PLAN]);
    expect([arg.code, flag.code]).toEqual([0, 0]);
    expect(arg.stdout).toContain('Plan: 95% interval of shift');
    expect(flag.stdout).toBe(arg.stdout);
    expect(arg.stderr).toBe('');
    expect(lines(flag.stderr)).toEqual([`warning: ${cliMsg.deprecatedStore()}`]);
  });

  it('-q prints the same plan and nothing else', async () => {
    const quiet = await run(['plan', store, ...PLAN, '-q']);
    const loud = await run(['plan', store, ...PLAN]);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe(loud.stdout);
    expect(quiet.stderr).toBe('');
  });

  it('two different stores, or a store and --data, are refused in one line', async () => {
    const two = await run(['plan', store, '--store', join(dir, 'other.sqlite'), ...PLAN]);
    expect(two.code).toBe(2);
    expect(lines(two.stderr)).toEqual([`samegame: ${cliMsg.storeTwice(store, join(dir, 'other.sqlite'))}`]);
    const both = await run(['plan', store, '--data', 'data/lore-heydari-2024/rates.csv', ...PLAN]);
    expect(both.code).toBe(2);
    expect(lines(both.stderr)).toEqual([`samegame: ${commandsMsg.needDataOrStore()}`]);
    expect(both.stdout).toBe('');
  });
});

describe('--price: USD or IN,OUT in both run and plan', () => {
  it('plan STORE --price 200,3000 costs each call 100 input tokens at $200/M and 5 output at $3000/M: $0.035', async () => {
    const r = await run(['plan', store, ...PLAN, '--price', '200,3000']);
    expect(r.code).toBe(0);
    const row = pooledRow(r.stdout);
    expect(row.tokens).toBe(105 * row.calls);
    expect(row.calls).toBeGreaterThan(100);
    expect(row.cost).toBeCloseTo(row.calls * 0.035, 2);
    const one = pooledRow((await run(['plan', store, ...PLAN, '--price', '2'])).stdout);
    expect(one.cost).toBeCloseTo(one.calls * 105 * 2e-6, 2);
  });

  it('plan --data --price IN,OUT with different prices is refused: a rates file has no input/output split', async () => {
    const r = await run(['plan', '--data', 'data/lore-heydari-2024/rates.csv', ...PLAN, '--tokens-per-call', '100', '--price', '2,3']);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([`samegame: ${commandsMsg.planPriceSplit()}`]);
    expect(r.stdout).toBe('');
  });

  it.each([['1,2,3'], ['2,'], ['-1'], ['2,1e308']])('--price %s is refused naming the flag', async (v) => {
    for (const argv of [['run', refusalKit.DESIGN, '--dry-run', '--store', join(dir, 'x.sqlite')], ['plan', store, ...PLAN]]) {
      const r = await run([...argv, '--price', v]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--price: ${JSON.stringify(v)} is not a price or IN,OUT, each a number from 0 to 100000`);
    }
  });

  it('run --price IN,OUT prices as --price-in IN --price-out OUT did; the old flags add one deprecation line', async () => {
    const base = ['run', refusalKit.DESIGN, '--dry-run', '--store', join(dir, 'run.sqlite')];
    const cost = (s: string) => lines(s).find((l) => l.startsWith('estimated cost'));
    const now = await run([...base, '--price', '100,0']);
    const old = await run([...base, '--price-in', '100', '--price-out', '0']);
    expect([now.code, old.code]).toEqual([0, 0]);
    expect(now.stdout).toBe(old.stdout);
    expect(now.stderr).toBe('');
    expect(lines(old.stderr)).toEqual([`warning: ${cliMsg.deprecatedPrice()}`]);
    // The two prices are not swapped: output tokens at $100/M cost otherwise than input tokens.
    expect(cost((await run([...base, '--price', '0,100'])).stdout)).not.toBe(cost(now.stdout));
    expect((await run([...base, '--price', '7'])).stdout).toBe((await run([...base, '--price-in', '7', '--price-out', '7'])).stdout);
    const twice = await run([...base, '--price', '1,1', '--price-in', '2']);
    expect(twice.code).toBe(2);
    expect(lines(twice.stderr).at(-1)).toBe(`samegame: ${cliMsg.priceTwice()}`);
  });
});
