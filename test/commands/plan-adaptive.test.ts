/** plan --until: an adaptive stop rule's expected calls at the planned rates, beside the fixed design. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/commands/run.js';
import { simulateMatchRule } from '../../src/analyses/adaptive/matches.js';
import { plan } from '../../src/commands/plan.js';
import { PLAN_ADAPTIVE_RUNS, type AdaptivePlan } from '../../src/commands/plan-adaptive.js';
import { simulateRule } from '../../src/stats/confseq/simulate.js';
import { ROOT, runCli } from '../helpers/cli.js';

const RATES = join(ROOT, 'data/lore-heydari-2024/rates.csv');

describe('plan --until', () => {
  it('simulates the rule for every contrast of the planned framings at the rates file\'s rates', async () => {
    let printed = '';
    const r = await plan({ data: RATES, targetHalfwidth: 0.05, reps: 100, until: 'target=shift,decide=sign,max_trials=300',
      logger: { info: () => {}, warn: () => {}, print: (t) => { printed += t; } } });
    expect('kind' in r).toBe(false);
    const a = r.adaptive as AdaptivePlan;
    expect(a.rows).toHaveLength(12);
    expect(a.maxTrials).toBe(300);
    expect(a.fixedCalls).toBe(12 * 2 * 300);
    expect(a.expectedCalls).toBeLessThan(a.fixedCalls);
    // One unit by hand: GPT-4's Prisoner's Dilemma, business 0 vs friend-sharing 0.987, the same seed and key.
    const row = a.rows.find((x) => x.model === 'GPT-4' && x.game === "Prisoner's Dilemma")!;
    const sim = simulateRule({ target: 'shift', decide: 'sign', confidence: 0.95, wave: 20, maxTrials: 300, method: 'betting' },
      { base: 0, alt: 0.987 }, PLAN_ADAPTIVE_RUNS, 20240818, "GPT-4\u0000Prisoner's Dilemma\u0000business\u0000friend-sharing");
    expect(row.meanTrials).toBe(sim.meanTrials);
    expect(row.coverage).toBe(sim.coverage);
    // The sequences hold at the stopping look: over the 12 contrasts' 2,400 simulated runs, at least 95 %.
    expect(a.rows.reduce((s, x) => s + x.coverage, 0) / a.rows.length).toBeGreaterThanOrEqual(0.95);
    expect(printed).toMatch(/Adaptive rule target=shift,decide=sign,max_trials=300 \(200 simulated runs per unit, at most 300 trials per cell\): /);
    expect(printed).toMatch(/expected [\d,]+ calls beside 7,200/);
  });
  it('takes max_trials from the fixed plan when the rule does not give it, and refuses a bad rule in one line', async () => {
    const r = await plan({ data: RATES, targetHalfwidth: 0.05, reps: 100, until: 'target=rate,half_width=0.1' });
    expect(r.adaptive?.rows).toHaveLength(24);
    expect('result' in r && r.adaptive!.maxTrials === r.result.nModels).toBe(true);
    await expect(plan({ data: RATES, targetHalfwidth: 0.05, reps: 100, until: 'target=rate,decide=sign' }))
      .rejects.toThrow(/^--until: decide: decide applies to target: shift/);
  });
});

describe('plan STORE --until on a repeated pilot', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-plan-rep-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const ROUNDS = 3;

  it('simulates the rule over matches drawn from the pilot\'s; without --until or max_trials it says what to give, in one line', async () => {
    const design = join(dir, 'pilot.yaml');
    writeFileSync(design, `name: pilot
synthetic: true
models:
  - { id: Sim-A, provider: simulated, options: { reciprocity: 1, rates: { prisoners-dilemma/business: 0.2, prisoners-dilemma/friend-sharing: 0.8 } } }
games: [prisoners-dilemma]
framings: [business, friend-sharing]
trials: 6
decoding: { seed: 5 }
play:
  rounds: ${ROUNDS}
  opponents: [self, always-cooperate]
`);
    const store = join(dir, 'pilot.sqlite');
    await run({ design, store });
    const until = 'target=shift,decide=sign,max_trials=60';
    let printed = '';
    const r = await plan({ store, targetHalfwidth: 0.1, until, logger: { info: () => {}, warn: () => {}, print: (t) => { printed += t; } } });
    if (!('kind' in r)) throw new Error('a one-shot plan of a repeated pilot');
    const a = r.adaptive;
    // Each match's observation, from the rows alone: seat 1's share of C over its rounds, by opponent and framing.
    const db = new Database(store, { readonly: true });
    const rows = db.prepare(`SELECT opponent, framing, match_id, avg(action = 'C') AS rate FROM trials WHERE seat = 1 GROUP BY match_id
      ORDER BY match_id`).all() as { opponent: string; framing: string; rate: number }[];
    db.close();
    const of = (opponent: string, framing: string) => rows.filter((x) => x.opponent === opponent && x.framing === framing).map((x) => x.rate);
    expect(a.rows.map((x) => [x.opponent, x.framings, x.pilot])).toEqual([
      ['Sim-A', ['business', 'friend-sharing'], [6, 6]], ['always-cooperate', ['business', 'friend-sharing'], [6, 6]]]);
    const rule = { target: 'shift' as const, decide: 'sign' as const, confidence: 0.95, wave: 20, maxTrials: 60, method: 'betting' as const };
    let expected = 0;
    for (const x of a.rows) {
      const sim = simulateMatchRule(rule, [of(x.opponent, 'business'), of(x.opponent, 'friend-sharing')], PLAN_ADAPTIVE_RUNS, 20240818,
        ['Sim-A', 'prisoners-dilemma', x.opponent, 'business', 'friend-sharing'].join('\u0000'));
      expect([x.meanTrials, x.coverage]).toEqual([sim.meanMatches, sim.coverage]);
      // calls: 2 framings × rounds × LLM seats (self: 2, always-cooperate: 1)
      expected += sim.meanMatches * 2 * ROUNDS * (x.opponent === 'Sim-A' ? 2 : 1);
    }
    expect(a.expectedCalls).toBeCloseTo(expected, 9);
    expect(a.fixedCalls).toBe(60 * 2 * ROUNDS * (2 + 1));
    expect(printed).toContain(`the stop rule simulated on draws from the pilot's 24 finished matches`);
    expect(printed).toContain(`Adaptive rule ${until} (200 simulated runs per unit, at most 60 matches per cell): expected `
      + `${Math.round(expected).toLocaleString('en-US')} calls beside 1,080 for the fixed 60 per cell`);

    const none = await runCli(['plan', store, '--target-halfwidth', '0.1']);
    expect([none.code, none.stderr.trim()]).toEqual([2, `samegame: ${store}: run 1 is a repeated game: plan gives the trials per cell of one-shot `
      + 'runs; for repeated play give --until RULE with max_trials, simulated on the pilot\'s matches (the match is the unit)']);
    const noMax = await runCli(['plan', store, '--target-halfwidth', '0.1', '--until', 'target=rate,half_width=0.1']);
    expect([noMax.code, noMax.stderr.trim()]).toEqual([2, `samegame: ${store}: --until on a repeated pilot needs max_trials (matches per cell at most), `
      + 'e.g. target=shift,decide=sign,max_trials=100']);
  });
});

describe('plan --until: the framings and max_trials checked', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-plan-checks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const quiet = { info: () => {}, warn: () => {} };

  it('a repeated pilot: --base/--alt name its framings (else one line), the default pair and the rule\'s base=/alt= as the one-shot plan', async () => {
    const design = join(dir, 'reversed.yaml');
    // friend-sharing listed first: the default pair is still business (base) and friend-sharing (alt)
    writeFileSync(design, `name: reversed
synthetic: true
models:
  - { id: Sim-A, provider: simulated, options: { reciprocity: 1, rates: { prisoners-dilemma/business: 0.2, prisoners-dilemma/friend-sharing: 0.8 } } }
games: [prisoners-dilemma]
framings: [friend-sharing, business, abstract-matrix]
trials: 4
decoding: { seed: 5 }
play:
  rounds: 2
  opponents: [always-cooperate]
`);
    const store = join(dir, 'reversed.sqlite');
    await run({ design, store });
    const pairs = async (until: string, o: { base?: string; alt?: string } = {}) => {
      const r = await plan({ store, targetHalfwidth: 0.1, until, logger: quiet, ...o });
      if (!('kind' in r)) throw new Error('a one-shot plan of a repeated pilot');
      return r.adaptive.rows.map((x) => x.framings.join(' vs '));
    };
    const shift = 'target=shift,decide=sign,max_trials=20';
    expect(await pairs(shift)).toEqual(['business vs friend-sharing']);
    expect(await pairs(shift, { base: 'abstract-matrix' })).toEqual(['abstract-matrix vs friend-sharing']);
    expect(await pairs(shift, { base: 'friend-sharing', alt: 'business' })).toEqual(['friend-sharing vs business']);
    // base=/alt= in the rule name framings of the pair planned; the pair's order is the flags' (or their defaults'), as in a one-shot plan
    expect(await pairs(`${shift},base=friend-sharing,alt=business`)).toEqual(['business vs friend-sharing']);
    const oneShot = await plan({ data: RATES, targetHalfwidth: 0.05, reps: 100, until: `${shift},base=friend-sharing,alt=business` });
    expect(new Set(oneShot.adaptive!.rows.map((x) => x.framings.join(' vs ')))).toEqual(new Set(['business vs friend-sharing']));
    await expect(pairs(`${shift},base=abstract-matrix`)).rejects.toThrow(
      '--until: base: base "abstract-matrix" is not a framing of this design (framings: "business", "friend-sharing")');

    for (const [flag, o] of [['--base', { base: 'nosuch' }], ['--alt', { alt: 'nosuch' }]] as const) {
      await expect(pairs(shift, o)).rejects.toThrow(
        `${store}: ${flag} "nosuch" is not a framing of run 1 (its framings: "friend-sharing", "business", "abstract-matrix")`);
    }
    await expect(pairs(shift, { base: 'friend-sharing' })).rejects.toThrow('--base and --alt must differ (both are "friend-sharing")');
    const cli = await runCli(['plan', store, '--target-halfwidth', '0.1', '--until', shift, '--base', 'nosuch']);
    expect([cli.code, cli.stderr.trim()]).toEqual([2, `samegame: ${store}: --base "nosuch" is not a framing of run 1 (its framings: "friend-sharing", `
      + '"business", "abstract-matrix")']);

    // max_trials read from the rule as parsed (a key written with spaces, or only its look-alike), bounded
    expect(await pairs('target=shift,decide=sign, max_trials = 20')).toEqual(['business vs friend-sharing']);
    await expect(pairs('target=shift,decide=sign,half_width=0.1,wave=20')).rejects.toThrow(
      `${store}: --until on a repeated pilot needs max_trials`);
    const over = '--until: max_trials: 1000000000 is more than a plan simulates (at most 1,000,000 per cell, the most trials a design\'s cell holds)';
    await expect(pairs('target=shift,decide=sign,max_trials=1000000000')).rejects.toThrow(over);
    await expect(pairs('target=rate,half_width=0.1,max_trials=1000001')).rejects.toThrow(over.replace('1000000000', '1000001'));
  });

  it('a one-shot plan: max_trials above the bound refused in one line, before anything is simulated', async () => {
    for (const n of [10_000_000_000, 1_000_001]) {
      await expect(plan({ data: RATES, targetHalfwidth: 0.05, reps: 100, until: `target=shift,decide=sign,max_trials=${n}` })).rejects.toThrow(
        `--until: max_trials: ${n} is more than a plan simulates (at most 1,000,000 per cell, the most trials a design's cell holds)`);
    }
    const cli = await runCli(['plan', '--data', RATES, '--target-halfwidth', '0.05', '--reps', '100', '--until', 'target=rate,half_width=0.1,max_trials=1e9']);
    expect([cli.code, cli.stderr.trim()]).toEqual([2, 'samegame: --until: max_trials: 1000000000 is more than a plan simulates (at most 1,000,000 per '
      + 'cell, the most trials a design\'s cell holds)']);
  });
});
