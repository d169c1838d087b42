/**
 * An adaptive repeated game (a play design with a stop: block) on the simulated provider: the match is the unit of
 * sampling, each contrast of two framings (per opponent) stops when the sequence over its pairs of matches meets the rule;
 * the matches stored are exactly those of its looks, each played whole; the intervals equal the sequence recomputed here
 * from the stored decisions; a run killed mid-wave (calls in flight dropped) and run again ends with the store of an
 * uninterrupted run; analyze reports each unit's interval at its stop and the matches and calls saved.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/commands/run.js';
import { analyze } from '../../src/commands/analyze.js';
import { coverage } from '../../src/commands/coverage.js';
import { loadDesign } from '../../src/live/design/design.js';
import { TrialStore } from '../../src/live/store/store.js';
import { runMatchWaves } from '../../src/live/adaptive/waves.js';
import * as matchPlans from '../../src/live/repeated/plan.js';
import { matchStatuses } from '../../src/live/adaptive/matches.js';
import { prepareSession, runRow } from '../../src/live/runner/session.js';
import { createSimulatedProvider } from '../../src/live/providers/simulated.js';
import { CONFSEQ_METHODS } from '../../src/stats/confseq/registry.js';
import type { ProviderRequest } from '../../src/live/types.js';
import { readRepeatedStore } from '../../src/sources/repeated-store.js';
import { adaptive, PLAN_ADAPTIVE_RUNS, simulateMatchUnits } from '../../src/analyses/adaptive/index.js';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-adaptive-rep-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROUNDS = 5, TRIALS = 100;

/** One reactive simulated model, two framings far apart in round 1 and one null game; against itself and always-cooperate. */
function design(name: string, stop: string): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, `name: ${name}
synthetic: true
models:
  - { id: Sim-A, provider: simulated, options: { reciprocity: 1, rates: { prisoners-dilemma/business: 0.2, prisoners-dilemma/friend-sharing: 0.8,
      stag-hunt/business: 0.5, stag-hunt/friend-sharing: 0.5 } } }
games: [prisoners-dilemma, stag-hunt]
framings: [business, friend-sharing]
trials: ${TRIALS}
decoding: { seed: 3 }
play:
  rounds: ${ROUNDS}
  opponents: [self, always-cooperate]
stop: ${stop}
`);
  return path;
}

interface Row { game: string; framing: string; opponent: string; match_id: number; round: number; seat: number; action: string | null; status: string }
function rows(store: string): Row[] {
  const db = new Database(store, { readonly: true });
  try {
    return db.prepare('SELECT game, framing, opponent, match_id, round, seat, action, status FROM trials ORDER BY match_id, round, seat').all() as Row[];
  } finally { db.close(); }
}
const fingerprint = (store: string) => {
  const db = new Database(store, { readonly: true });
  try {
    return (db.prepare('SELECT model, game, framing, opponent, match_id, round, seat, status, action, prompt FROM trials ORDER BY match_id, round, seat')
      .all() as object[]).map((r) => JSON.stringify(r));
  } finally { db.close(); }
};

function statusesOf(path: string, store: string) {
  const d = loadDesign(path);
  const s = TrialStore.openExisting(store);
  try { return matchStatuses(d.stop!, d, s.playMoves(s.runs()[0].id)); } finally { s.close(); }
}

/** Seat 1's cooperation rate of each stored match, by game/framing/opponent, in match order (the match's rep), from the rows alone. */
function matchRates(r: readonly Row[]): Map<string, number[]> {
  const byMatch = new Map<number, { key: string; c: number; n: number }>();
  for (const x of r) {
    if (x.seat !== 1) continue;
    const m = byMatch.get(x.match_id) ?? { key: `${x.game}/${x.framing}/${x.opponent}`, c: 0, n: 0 };
    m.n++;
    if (x.action === 'C') m.c++;
    byMatch.set(x.match_id, m);
  }
  const out = new Map<string, number[]>();
  for (const [, m] of [...byMatch].sort((a, b) => a[0] - b[0])) {
    expect(m.n).toBe(ROUNDS); // every match played whole
    out.set(m.key, [...(out.get(m.key) ?? []), m.c / m.n]);
  }
  return out;
}

describe('adaptive repeated play on the simulated provider', () => {
  it('stops each contrast over pairs of whole matches; the intervals are the sequence of the stored matches; fewer calls than fixed', async () => {
    const path = design('sign', '{ target: shift, decide: sign, wave: 10 }');
    const store = join(dir, 'sign.sqlite');
    await run({ design: path, store });
    const st = statusesOf(path, store);
    expect(st.map((s) => `${s.unit.game}/${s.unit.opponent}`)).toEqual(['prisoners-dilemma/Sim-A', 'prisoners-dilemma/always-cooperate',
      'stag-hunt/Sim-A', 'stag-hunt/always-cooperate']);
    const r = rows(store);
    const rates = matchRates(r);
    for (const s of st) {
      const base = rates.get(`${s.unit.game}/business/${s.unit.opponent}`) ?? [];
      const alt = rates.get(`${s.unit.game}/friend-sharing/${s.unit.opponent}`) ?? [];
      // exactly the matches of its looks, in both framings
      expect([base.length, alt.length]).toEqual([s.n, s.n]);
      // the interval: the betting sequence over (d + 1)/2, d = alt − base of each pair, recomputed here, mapped back to the shift
      const seq = CONFSEQ_METHODS.betting.start({ alpha: 0.05 });
      for (let i = 0; i < s.n; i++) seq.push((alt[i] - base[i] + 1) / 2);
      const [l, u] = seq.interval();
      expect([s.lo, s.hi]).toEqual([2 * l - 1, 2 * u - 1]);
      if (s.stopped === 'sign') expect(s.lo > 0 || s.hi < 0).toBe(true);
    }
    // 0.2 vs 0.8 in round 1 decides its sign early against either opponent; the null game runs longer
    const pd = st.filter((s) => s.unit.game === 'prisoners-dilemma');
    for (const s of pd) expect([s.stopped, s.n < 50]).toEqual(['sign', true]);
    const calls = r.length;
    const fixed = 2 * 2 * TRIALS * ROUNDS * (2 + 1); // games × framings × matches × rounds × (self: 2 seats, always-cooperate: 1)
    expect(calls).toBe(st.reduce((a, s) => a + 2 * s.n * ROUNDS * (s.unit.opponent === 'Sim-A' ? 2 : 1), 0));
    expect(calls).toBeLessThan(fixed);
    console.log(`adaptive repeated run: ${calls} of ${fixed} calls; ${st.map((s) => `${s.unit.game}/${s.unit.opponent} ${s.stopped} at ${s.n}`).join(', ')}`);

    // analyze: adaptive.csv (with the opponent, counted in matches) and the report's section
    const lines: string[] = [];
    const out = join(dir, 'sign-out');
    await analyze({ store, out, figures: false, reps: 100, logger: { info: (m) => lines.push(m), warn: (m) => lines.push(m) } });
    const csv = readFileSync(join(out, 'reports', 'adaptive.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('model,game,opponent,framing,target,method,confidence,n,lo,hi,half_width,stopped,max_trials,matches_saved');
    for (const s of st) {
      const row = csv.find((l) => l.startsWith(`Sim-A,${s.unit.game},${s.unit.opponent},`))!.split(',');
      expect([Number(row[7]), row[11], Number(row[13])]).toEqual([s.n, s.stopped, (TRIALS - s.n) * 2]);
      expect(Number(row[8])).toBeCloseTo(s.lo, 10);
    }
    expect(lines.find((l) => l.startsWith('adaptive run:'))).toContain(`(${calls.toLocaleString('en-US')} calls of ${fixed.toLocaleString('en-US')})`);
    expect(lines.some((l) => l.includes('are not over'))).toBe(false);
    const metrics = JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8')) as { adaptive: { unit: string; used: number; fixed: number;
      calls: { used: number; fixed: number }; units: { n: number }[] } };
    expect(metrics.adaptive.unit).toBe('match');
    expect(metrics.adaptive.calls).toEqual({ used: calls, fixed });
    expect(metrics.adaptive.used).toBe(st.reduce((acc, s) => acc + 2 * s.n, 0));
    expect(metrics.adaptive.units.map((u) => u.n)).toEqual(st.map((s) => s.n)); // matches the rule never asked for are not unfinished
    // the report's section, from the store as analyze reads it
    const a = readRepeatedStore(store).adaptive!;
    expect(a.calls).toEqual({ used: calls, fixed });
    const sec = adaptive.section(a.rule, a.statuses, (id) => id, a.calls);
    const text = sec.blocks.flatMap((b) => (b.kind === 'text' ? [b.text] : []));
    expect(text.some((t) => t.includes('the match is the unit of sampling'))).toBe(true);
    expect(text).toContain(`Those matches made ${calls.toLocaleString('en-US')} calls (decisions, at most: a forfeited match ends early) of the fixed `
      + `design's ${fixed.toLocaleString('en-US')} (${(fixed - calls).toLocaleString('en-US')} saved).`);

    // coverage of the run: each unit's rule simulated on draws from its stored matches, the sequence and the t interval at the stop
    const cov = await coverage({ store, sims: 100, reps: 50, out: join(dir, 'cov'), figures: false, dryRun: true });
    const rowsOf = cov.adaptive.filter((x) => x.statistic === 'shift Sim-A/prisoners-dilemma vs always-cooperate (friend-sharing − business) over matches');
    expect(rowsOf.map((x) => x.method)).toEqual(['betting sequence at the stop', 't over matches at the stop (fixed-n)']);
    const pdc = rates.get('prisoners-dilemma/friend-sharing/always-cooperate')!, pdb = rates.get('prisoners-dilemma/business/always-cooperate')!;
    const mean = (x: number[]) => x.reduce((p, q) => p + q, 0) / x.length;
    expect(rowsOf[0].truth).toBeCloseTo(mean(pdc) - mean(pdb), 12);
    expect(rowsOf[0].coverage).toBeGreaterThanOrEqual(0.9);
    expect(cov.adaptive).toHaveLength(2 * st.length);
  }, 120_000);

  it('run --dry-run counts max_trials matches, its bound leaves out the decisions stored, and with matches stored it simulates the rule on them', async () => {
    const path = design('dry', '{ target: shift, decide: sign, wave: 10, max_trials: 40 }');
    const store = join(dir, 'dry.sqlite');
    let printed = '';
    const logger = { info: () => {}, warn: () => {}, print: (t: string) => { printed += t; } };
    const dry = () => { printed = ''; return run({ design: path, store, dryRun: true, logger }); };
    await dry();
    // 2 games × 2 framings × 40 matches × 5 rounds × (self: 2 seats + always-cooperate: 1)
    expect(printed.split('\n')[0]).toMatch(/^dry run: 320 matches × 5 rounds: 2400 calls to make \(2400 decisions .*, 0 already stored\)/);
    expect(printed).toContain('4 units, each stopped by its confidence sequence; at most 2,400 calls (the fixed design: 40 matches per cell)');
    expect(printed).not.toContain('expected');
    // The stored moves are read once per look (before the first wave and after each), the engine starting from the look's.
    const waves: string[] = [];
    const reads = vi.spyOn(TrialStore.prototype, 'playMoves');
    try {
      await run({ design: path, store, logger: { info: (m) => { if (/^wave \d+:/.test(m)) waves.push(m); }, warn: () => {} } });
      expect(waves.length).toBeGreaterThan(1);
      expect(reads).toHaveBeenCalledTimes(waves.length + 1);
    } finally {
      reads.mockRestore();
    }
    const stored = rows(store).length;
    // The dry run plans the design's matches once (its bound, the plan of what may still be played, the simulation of the rule).
    const planned = vi.spyOn(matchPlans, 'planMatches');
    try {
      await dry();
      // once by the design's check of its longest round prompt (live/design/prompt-size.ts), once by the dry run
      expect(planned).toHaveBeenCalledTimes(2);
    } finally {
      planned.mockRestore();
    }
    // every unit stopped or at max_trials: a rerun plays nothing, and the dry run's first line says so
    expect(printed.split('\n')[0]).toMatch(/^dry run: \d+ matches × 5 rounds: 0 calls to make /);
    expect(printed).toContain(`at most ${(2400 - stored).toLocaleString('en-US')} calls (the fixed design: 40 matches per cell, 2,400 calls, `
      + `${stored.toLocaleString('en-US')} already stored)`);
    const a = readRepeatedStore(store).adaptive!;
    const sims = simulateMatchUnits(a.rule, a.samples!, PLAN_ADAPTIVE_RUNS, 0);
    const expected = sims.reduce((acc, u) => acc + u.sim.meanMatches * 2 * ROUNDS * (u.unit.opponent === 'Sim-A' ? 2 : 1), 0);
    expect(printed).toContain(`expected ${Math.round(expected).toLocaleString('en-US')} calls under the rule, simulated on draws from the `);
  }, 120_000);

  it('a run killed mid-wave (its calls in flight dropped) and run again ends with the store of an uninterrupted run', async () => {
    const rule = '{ target: rate, half_width: 0.15, wave: 10, max_trials: 40 }';
    const whole = join(dir, 'whole.sqlite');
    await run({ design: design('resume', rule), store: whole, concurrency: 3 });
    const cut = join(dir, 'cut.sqlite');
    const session = prepareSession(loadDesign(design('resume', rule)), {});
    const abort = new AbortController();
    const sim = createSimulatedProvider();
    let calls = 0;
    const providers = { get: () => ({ ...sim, complete: (req: ProviderRequest) => { if (++calls === 130) abort.abort(); return sim.complete(req); } }) };
    const s = TrialStore.open(cut);
    try {
      const runId = s.openRun(runRow(session)).run.id;
      const r = await runMatchWaves({ store: s, runId, design: session.design, providers, concurrency: 3, stop: abort.signal, abort: abort.signal,
        rule: session.design.stop! });
      expect(r.outcome).toBe('aborted');
    } finally { s.close(); }
    const partial = fingerprint(cut).length;
    expect(partial).toBeGreaterThan(100);
    expect(partial).toBeLessThan(fingerprint(whole).length);
    await run({ design: design('resume', rule), store: cut, concurrency: 3 });
    expect(fingerprint(cut)).toEqual(fingerprint(whole));
  }, 120_000);
});
