/**
 * An adaptive run (a design with a stop: block) on the simulated provider at fixed per-cell
 * rates: each contrast stops when its confidence sequence meets the rule, the run uses fewer
 * trials than the fixed design, every contrast stopped for precision has an interval at or below
 * the target, the decisions are a function of the stored trials, and a run interrupted mid-wave and
 * run again ends with the store of an uninterrupted run.
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
import { runWaves } from '../../src/live/runner/waves.js';
import { stopUnits, unitStatuses } from '../../src/stats/confseq/units.js';
import { prepareSession, runRow } from '../../src/live/runner/session.js';
import { createSimulatedProvider } from '../../src/live/providers/simulated.js';
import type { ProviderRequest } from '../../src/live/types.js';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-adaptive-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two models × two games × two framings; rates chosen so that some contrasts are near-degenerate. */
function design(stop: string, name: string): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, `name: ${name}
synthetic: true
models:
  - { id: Sim-A, provider: simulated, options: { rates: { prisoners-dilemma/business: 0.0, prisoners-dilemma/friend-sharing: 0.0,
      stag-hunt/business: 0.98, stag-hunt/friend-sharing: 1.0 } } }
  - { id: Sim-B, provider: simulated, options: { rates: { prisoners-dilemma/business: 0.2, prisoners-dilemma/friend-sharing: 0.7,
      stag-hunt/business: 0.5, stag-hunt/friend-sharing: 0.5 } } }
games: [prisoners-dilemma, stag-hunt]
framings: [business, friend-sharing]
trials: 200
decoding: { seed: 3 }
${stop === '' ? '' : `stop: ${stop}`}
`);
  return path;
}

function outcomes(store: string): string[] {
  const db = new Database(store, { readonly: true });
  try {
    return (db.prepare('SELECT model, game, framing, rep, status, action, text FROM trials ORDER BY model, game, framing, rep').all() as object[])
      .map((r) => JSON.stringify(r));
  } finally { db.close(); }
}

function statusesOf(designPath: string, store: string) {
  const d = loadDesign(designPath);
  const s = TrialStore.openExisting(store);
  try {
    const cells = expandDesign(d).map((t) => ({ model: t.model.id, game: t.game, framing: t.framing }));
    return unitStatuses(d.stop!, stopUnits(d.stop!, cells), s.trialOutcomes(s.runs()[0].id));
  } finally { s.close(); }
}

describe('adaptive run on the simulated provider', () => {
  it('stops each contrast by its sequence: fewer trials than fixed, stopped intervals at or below the target', async () => {
    const path = design('{ target: shift, half_width: 0.1, wave: 20, method: betting }', 'precision');
    const store = join(dir, 'precision.sqlite');
    await run({ design: path, store, concurrency: 8 });
    const st = statusesOf(path, store);
    expect(st).toHaveLength(4);
    const rows = outcomes(store);
    // Each contrast used n pairs, nothing beyond its stopping look.
    expect(rows.length).toBe(st.reduce((a, s) => a + 2 * s.n, 0));
    expect(rows.length).toBeLessThan(4 * 2 * 200);
    for (const s of st) {
      expect(s.stopped).not.toBeNull();
      if (s.stopped === 'precision') expect((s.hi - s.lo) / 2).toBeLessThanOrEqual(0.1);
      else expect(s.n).toBe(200);
    }
    // The degenerate contrast (0 vs 0) stops at precision well before 200 pairs.
    const degenerate = st.find((s) => s.unit.model === 'Sim-A' && s.unit.game === 'prisoners-dilemma')!;
    expect(degenerate.stopped).toBe('precision');
    expect(degenerate.n).toBeLessThan(100);
    // analyze reports each contrast's sequence interval at its stopping look and the trials saved.
    const lines: string[] = [];
    const out = join(dir, 'precision-out');
    await analyze({ store, out, figures: false, reps: 200, logger: { info: (m) => lines.push(m), warn: () => {} } });
    const csv = readFileSync(join(out, 'reports', 'adaptive.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('model,game,framing,target,method,confidence,n,lo,hi,half_width,stopped,max_trials,trials_saved');
    expect(csv).toHaveLength(5);
    for (const s of st) {
      const row = csv.find((l) => l.startsWith(`${s.unit.model},${s.unit.game},`))!.split(',');
      expect([Number(row[6]), row[10], Number(row[12])]).toEqual([s.n, s.stopped, (200 - s.n) * 2]);
      expect(Number(row[7])).toBeCloseTo(s.lo, 10); // the files' 12 significant digits
      expect(Number(row[8])).toBeCloseTo(s.hi, 10);
    }
    expect(lines.some((l) => l.includes('fixed-n intervals of table3.csv assume a sample size fixed in advance'))).toBe(true);
  });

  it('with decide: sign, a clear contrast stops early for its sign and a null one does not', async () => {
    const path = design('{ target: shift, decide: sign, wave: 20 }', 'sign');
    const store = join(dir, 'sign.sqlite');
    await run({ design: path, store, concurrency: 8 });
    const st = statusesOf(path, store);
    const clear = st.find((s) => s.unit.model === 'Sim-B' && s.unit.game === 'prisoners-dilemma')!; // 0.2 vs 0.7
    expect(clear.stopped).toBe('sign');
    expect(clear.lo).toBeGreaterThan(0);
    expect(clear.n).toBeLessThan(100);
    const nullShift = st.find((s) => s.unit.model === 'Sim-B' && s.unit.game === 'stag-hunt')!; // 0.5 vs 0.5
    expect(nullShift.n).toBe(200);
  });

  it('run --until gives a design without a stop block the same rule as the block would', async () => {
    const until = join(dir, 'until.sqlite'), block = join(dir, 'block.sqlite');
    await run({ design: design('', 'until'), store: until, concurrency: 8, until: 'target=shift,half_width=0.1,wave=20' });
    await run({ design: design('{ target: shift, half_width: 0.1, wave: 20 }', 'until'), store: block, concurrency: 8 });
    expect(outcomes(until)).toEqual(outcomes(block));
    expect(outcomes(until).length).toBeLessThan(4 * 2 * 200);
  });

  it('a run interrupted mid-wave and run again ends with the store of an uninterrupted run', async () => {
    const rule = '{ target: shift, half_width: 0.1, wave: 20 }';
    const whole = join(dir, 'whole.sqlite');
    await run({ design: design(rule, 'resume'), store: whole, concurrency: 3 });
    const cut = join(dir, 'cut.sqlite');
    // The first session: the simulated provider, with the run's soft stop pulled at its 50th call (mid-wave).
    const session = prepareSession(loadDesign(design(rule, 'resume')), {});
    const stop = new AbortController();
    const sim = createSimulatedProvider();
    let calls = 0;
    const providers = { get: () => ({ ...sim, complete: (req: ProviderRequest) => { if (++calls === 50) stop.abort(); return sim.complete(req); } }) };
    const s = TrialStore.open(cut);
    try {
      const runId = s.openRun(runRow(session)).run.id;
      const r = await runWaves({ store: s, runId, specs: session.specs, providers, concurrency: 3, stop: stop.signal, rule: session.design.stop! });
      expect(r.outcome).toBe('interrupted');
    } finally { s.close(); }
    const partial = outcomes(cut).length;
    expect(partial).toBeGreaterThan(0);
    expect(partial % 20).not.toBe(0);
    await run({ design: design(rule, 'resume'), store: cut, concurrency: 3 });
    expect(outcomes(cut)).toEqual(outcomes(whole));
  });
});
