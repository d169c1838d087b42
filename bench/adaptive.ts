/**
 * Benchmark (the adaptive-run figures, in `npm run bench adaptive`): the stop rule's look after a
 * wave — every unit's outcomes read from the store and its betting confidence sequence rebuilt
 * from them — beside the store writes of that wave (one fsynced transaction per trial, as the
 * runner writes). The seed contrast at its largest: 12 contrasts × 2 framings × 300 trials stored,
 * the wave 12 × 2 × 20 = 480 trials.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TrialStore } from '../src/live/store/store.js';
import type { TrialRecord } from '../src/live/types.js';
import { stopUnits, unitStatuses } from '../src/stats/confseq/units.js';
import type { StopRule } from '../src/stats/confseq/stop-rule.js';
import { RUN, trial } from './store-section.js';
import type { BenchRow } from './util.js';

const MODELS = 3, GAMES = 4, FRAMINGS = ['business', 'friend-sharing'], REPS = 300, WAVE = 20;

function record(m: number, g: number, f: number, rep: number): TrialRecord {
  const t = trial(rep);
  return { ...t, model: `m${m}`, game: `g${g}`, framing: FRAMINGS[f], rep, action: (rep * 7 + m + g + f) % 5 < 2 ? 'C' : 'D' };
}

export function benchAdaptive(): BenchRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-adaptive-'));
  try {
    const store = TrialStore.open(join(dir, 'adaptive.sqlite'));
    const runId = store.openRun(RUN).run.id;
    const cells = [];
    for (let m = 0; m < MODELS; m++) for (let g = 0; g < GAMES; g++) for (const framing of FRAMINGS) cells.push({ model: `m${m}`, game: `g${g}`, framing });
    // Everything but the last wave, in one transaction (not timed).
    const db = (store as unknown as { db: { transaction: (f: () => void) => () => void } }).db;
    db.transaction(() => {
      for (let m = 0; m < MODELS; m++) for (let g = 0; g < GAMES; g++) for (let f = 0; f < 2; f++) {
        for (let rep = 0; rep < REPS - WAVE; rep++) store.write({ ...record(m, g, f, rep), runId });
      }
    })();
    // The last wave, one fsynced transaction per trial (timed).
    let t = performance.now();
    for (let m = 0; m < MODELS; m++) for (let g = 0; g < GAMES; g++) for (let f = 0; f < 2; f++) {
      for (let rep = REPS - WAVE; rep < REPS; rep++) store.write({ ...record(m, g, f, rep), runId });
    }
    const writes = performance.now() - t;
    const rule: StopRule = { target: 'shift', halfWidth: 0.01, confidence: 0.95, wave: WAVE, maxTrials: REPS, method: 'betting' };
    const units = stopUnits({ ...rule, base: FRAMINGS[0], alt: FRAMINGS[1] }, cells);
    t = performance.now();
    const st = unitStatuses(rule, units, store.trialOutcomes(runId));
    const look = performance.now() - t;
    store.close();
    if (st.length !== MODELS * GAMES || st.some((s) => s.n !== REPS)) throw new Error('the look did not read every unit to its last rep');
    return [{
      name: 'adaptive look after a wave (12 contrasts, 7,200 trials stored)', value: look, unit: 'ms', baseline: writes,
      baselineName: 'store writes of the wave (480 fsynced trials)', note: `look / writes = ${(look / writes).toFixed(3)}`,
    }];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
