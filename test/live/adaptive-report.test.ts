/**
 * The analysis of an adaptive run in the report and metrics.json, and `run --dry-run` of an
 * adaptive design: the calls of the fixed design as the most, and at simulated rates the calls
 * expected under the rule (each unit's simulation redone here by hand, summed).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/commands/run.js';
import { analyze } from '../../src/commands/analyze.js';
import { loadDesign, expandDesign } from '../../src/live/design/design.js';
import { TrialStore } from '../../src/live/store/store.js';
import { stopUnits, unitStatuses } from '../../src/stats/confseq/units.js';
import { simulateRule } from '../../src/stats/confseq/simulate.js';
import { PLAN_ADAPTIVE_RUNS } from '../../src/analyses/adaptive/plan.js';
import { escapeHtml } from '../../src/render/html.js';
import { runWaves } from '../../src/live/runner/waves.js';
import { prepareSession, runRow } from '../../src/live/runner/session.js';
import { createSimulatedProvider } from '../../src/live/providers/simulated.js';
import type { ProviderRequest } from '../../src/live/types.js';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-adaptive-report-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RATES = { 'prisoners-dilemma/business': 0.0, 'prisoners-dilemma/friend-sharing': 0.0, 'stag-hunt/business': 0.2, 'stag-hunt/friend-sharing': 0.8 };

/** One simulated model (at fixed rates, or by the logit rule with `rates` partial) × two games × two framings. */
function design(name: string, stop: string, rates: Record<string, number> = RATES): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, `name: ${name}
synthetic: true
models:
  - { id: Sim-A, provider: simulated, options: { rates: ${JSON.stringify(rates)} } }
games: [prisoners-dilemma, stag-hunt]
framings: [business, friend-sharing]
trials: 100
decoding: { seed: 5 }
${stop === '' ? '' : `stop: ${stop}`}
`);
  return path;
}

function dryRunText(path: string, store: string): Promise<string> {
  let printed = '';
  return run({ design: path, store, dryRun: true, logger: { info: () => {}, warn: () => {}, print: (t) => { printed += t; } } }).then(() => printed);
}

describe('analyze of an adaptive run', () => {
  it('reports each unit\'s anytime-valid interval at its stopping look, why and when it stopped, and trials used beside the fixed design', async () => {
    const path = design('report', '{ target: shift, decide: sign, wave: 20, max_trials: 80 }');
    const store = join(dir, 'report.sqlite');
    await run({ design: path, store, concurrency: 4 });
    const d = loadDesign(path);
    const s = TrialStore.openExisting(store);
    const cells = expandDesign(d).map((t) => ({ model: t.model.id, game: t.game, framing: t.framing }));
    const st = unitStatuses(d.stop!, stopUnits(d.stop!, cells), s.trialOutcomes(s.runs()[0].id));
    s.close();
    const db = new Database(store, { readonly: true });
    const stored = (db.prepare('SELECT COUNT(*) AS n FROM trials').get() as { n: number }).n;
    db.close();
    // 0 vs 0 never excludes 0: it runs to max_trials; 0.2 vs 0.8 decides its sign within 80 pairs.
    const pd = st.find((x) => x.unit.game === 'prisoners-dilemma')!, sh = st.find((x) => x.unit.game === 'stag-hunt')!;
    expect([pd.stopped, pd.n]).toEqual(['max_trials', 80]);
    expect(sh.stopped).toBe('sign');
    expect(sh.n).toBeLessThan(80);
    const out = join(dir, 'report-out');
    await analyze({ store, out, reps: 200, logger: { info: () => {}, warn: () => {} } });
    const m = JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8')) as { adaptive: Record<string, unknown> };
    const a = m.adaptive as { rule: Record<string, unknown>; units: Record<string, unknown>[]; used: number; fixed: number; early: number };
    expect(a.rule).toEqual({ target: 'shift', half_width: null, decide: 'sign', delta: null, confidence: 0.95, wave: 20, max_trials: 80, method: 'betting' });
    expect(a.used).toBe(stored); // the trials in the store, counted by SQL
    expect(a.fixed).toBe(2 * 2 * 80);
    expect(a.early).toBe(1);
    expect(a.units.map((u) => [u.game, u.n, u.look, u.stopped, u.trials_used])).toEqual([
      ['prisoners-dilemma', 80, 4, 'max_trials', 160], ['stag-hunt', sh.n, sh.n / 20, 'sign', 2 * sh.n]]);
    expect(a.units[1].lo as number).toBeCloseTo(sh.lo, 10);
    expect(a.units[1].lo as number).toBeGreaterThan(0);
    const html = readFileSync(join(out, 'reports', 'report.html'), 'utf8');
    expect(html).toContain('Adaptive stopping: anytime-valid intervals');
    expect(html).toContain('fixed-n intervals of Table 3');
    expect(html).toContain(`[${sh.lo.toFixed(3)}, ${sh.hi.toFixed(3)}]`);
    expect(html).toContain(escapeHtml(`${stored.toLocaleString('en-US')} trials used of the fixed design's 320`));
  });

  it('a run without a stop rule has neither the section nor the block', async () => {
    const store = join(dir, 'fixed.sqlite');
    await run({ design: design('fixed', ''), store, concurrency: 4 });
    const out = join(dir, 'fixed-out');
    await analyze({ store, out, reps: 200, figures: false, logger: { info: () => {}, warn: () => {} } });
    expect(JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8')).adaptive).toBeUndefined();
  });
});

describe('run --dry-run of an adaptive design', () => {
  it('says it is adaptive with the fixed design as the most, and at fixed simulated rates the expected calls of the rule', async () => {
    const text = await dryRunText(design('dry', '{ target: shift, decide: sign, wave: 20, max_trials: 80 }'), join(dir, 'dry.sqlite'));
    expect(text).toContain('adaptive run (stop rule target=shift,decide=sign,confidence=0.95,wave=20,max_trials=80,method=betting): 2 units');
    expect(text).toContain('at most 320 calls (the fixed design: 80 trials per cell)');
    // Each unit's simulation by hand (seed 0, the run's default --seed): pairs × 2 framings, summed.
    const rule = { target: 'shift', decide: 'sign', confidence: 0.95, wave: 20, maxTrials: 80, method: 'betting' } as const;
    const units: [string, number, number][] = [['prisoners-dilemma', 0, 0], ['stag-hunt', 0.2, 0.8]];
    const expected = units.reduce((acc, [g, base, alt]) => acc
      + 2 * simulateRule(rule, { base, alt }, PLAN_ADAPTIVE_RUNS, 0, `Sim-A\u0000${g}\u0000business\u0000friend-sharing`).meanTrials, 0);
    expect(expected).toBeLessThan(320);
    expect(text).toContain(`expected ${Math.round(expected).toLocaleString('en-US')} calls under the rule`);
  });

  it('without a rate for every cell, the fixed design alone; without a stop rule, nothing adaptive', async () => {
    const partial = await dryRunText(design('partial', '{ target: shift, half_width: 0.2 }', { 'stag-hunt/business': 0.5 }), join(dir, 'p.sqlite'));
    expect(partial).toContain('at most 400 calls (the fixed design: 100 trials per cell)');
    expect(partial).not.toContain('expected');
    const plain = await dryRunText(design('plain', ''), join(dir, 'plain.sqlite'));
    expect(plain).toContain('dry run: 400 calls');
    expect(plain).not.toContain('adaptive');
  });

  it('counts max_trials, not trials, and a resumed run\'s bound leaves out the trials already stored', async () => {
    const path = design('bound', '{ target: shift, decide: sign, wave: 20, max_trials: 80 }');
    const store = join(dir, 'bound.sqlite');
    const before = await dryRunText(path, store);
    expect(before.split('\n')[0]).toBe('dry run: 320 calls (320 trials, 0 already stored)');
    // The first 50 calls stored, then the soft stop: the run is left mid-wave.
    const session = prepareSession(loadDesign(path), {});
    const stop = new AbortController();
    const sim = createSimulatedProvider();
    let calls = 0;
    const providers = { get: () => ({ ...sim, complete: (req: ProviderRequest) => { if (++calls === 50) stop.abort(); return sim.complete(req); } }) };
    const s = TrialStore.open(store);
    try {
      const runId = s.openRun(runRow(session)).run.id;
      expect((await runWaves({ store: s, runId, specs: session.specs, providers, concurrency: 1, stop: stop.signal, rule: session.design.stop! })).outcome)
        .toBe('interrupted');
    } finally { s.close(); }
    const db = new Database(store, { readonly: true });
    const stored = (db.prepare('SELECT COUNT(*) AS n FROM trials').get() as { n: number }).n;
    db.close();
    expect(stored).toBe(50);
    const after = await dryRunText(path, store);
    expect(after.split('\n')[0]).toBe(`dry run: ${320 - stored} calls (320 trials, ${stored} already stored)`);
    expect(after).toContain(`at most ${320 - stored} calls (the fixed design: 80 trials per cell, 320 calls, ${stored} already stored)`);
  });
});
