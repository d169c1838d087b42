/**
 * Benchmark 3: `samegame analyze` on a synthetic store of 1,000,000 trials (10 models × 4 games ×
 * 8 framings × 3,125 reps), cold process, beside the floor of one SQL GROUP BY pass over the same
 * store. Memory: peak RSS at 100,000 and at 1,000,000 trials — it should not grow with the trials.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TrialStore } from '../src/live/store/store.js';
import { streamFor } from '../src/stats/rng.js';
import { timeCli } from './process.js';
import { median, type BenchRow } from './util.js';

const FRAMINGS = ['business', 'friend-sharing', 'abstract-matrix', 'neutral-narrative', 'cooperative-narrative', 'competitive-narrative', 'role-narrative', 'label-perturbation'];
const GAMES = ['prisoners-dilemma', 'snowdrift', 'stag-hunt', 'harmony'];

/** Write a store of `models × 4 × 8 × reps` sampled trials with seeded cooperation rates. */
export function syntheticStore(path: string, models: number, reps: number): number {
  rmSync(path, { force: true });
  const design = { name: `scale-${models}x${reps}`, models: Array.from({ length: models }, (_, i) => ({ id: `model-${i}`, provider: 'openai-chat' })), games: GAMES, framings: FRAMINGS, trials: reps };
  const store = TrialStore.open(path);
  const { run } = store.openRun({ name: design.name, hash: design.name, json: JSON.stringify(design), toolVersion: 'bench', started: '2026-01-01T00:00:00Z' });
  store.close();
  const db = new Database(path);
  db.pragma('synchronous = OFF'); // bench setup only; the runner writes with synchronous = FULL
  const ins = db.prepare(`INSERT INTO trials (run_id, model, game, framing, rep, factors, prompt, request, response, text, action,
    p_cooperate, scoring, model_snapshot, input_tokens, output_tokens, latency_ms, status, error, attempts)
    VALUES (?, ?, ?, ?, ?, '{}', 'prompt', '{}', '{}', ?, ?, NULL, NULL, 'bench', 180, 2, 200, ?, NULL, 1)`);
  let n = 0;
  db.transaction(() => {
    for (const m of design.models) for (const g of GAMES) for (const f of FRAMINGS) {
      const rng = streamFor(1, `${m.id}|${g}|${f}`);
      const p = 0.1 + 0.8 * rng.next();
      for (let r = 0; r < reps; r++) {
        const u = rng.next();
        const action = u < 0.01 ? null : (rng.next() < p ? 'C' : 'D');
        ins.run(run.id, m.id, g, f, r, action ?? 'unclear', action, action ? 'ok' : 'invalid');
        n++;
      }
    }
  })();
  db.close();
  return n;
}

export function benchScale(runs = 3): BenchRow[] {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'samegame-scale-'));
  const rows: BenchRow[] = [];
  const stores: [string, number][] = [[join(dir, 'small.sqlite'), 320], [join(dir, 'large.sqlite'), 3125]];
  const rss: number[] = [];
  for (const [path, reps] of stores) {
    const trials = syntheticStore(path, 10, reps);
    const times: number[] = [];
    let peak = 0;
    for (let i = 0; i < runs; i++) {
      const r = timeCli(['analyze', path, '--out', join(dir, `out-${reps}`), '-q']);
      if (r.code !== 0) throw new Error(`analyze failed: ${r.stderr}`);
      times.push(r.seconds);
      peak = Math.max(peak, r.peakRssMb);
    }
    rss.push(peak);
    // Floor: one GROUP BY pass over the trials, in this process.
    const db = new Database(path, { readonly: true });
    const t = performance.now();
    db.prepare("SELECT model, game, framing, sum(action = 'C'), sum(status = 'ok'), sum(status = 'invalid') FROM trials GROUP BY model, game, framing").all();
    const floor = (performance.now() - t) / 1000;
    db.close();
    rows.push({
      name: `analyze ${trials.toLocaleString('en-US')} trials (320 cells, 10,000 reps), cold process`, value: median(times), unit: 's',
      baseline: floor, baselineName: 'one SQL GROUP BY pass (floor)', target: trials >= 1e6 ? '≤ 3 s' : undefined, peakRssMb: peak,
    });
  }
  rows.push({ name: 'analyze peak RSS, 1,000,000 vs 102,400 trials', value: rss[1], unit: 'MB', baseline: rss[0], baselineName: 'peak RSS at 102,400 trials', target: '≈ 1.0 (no growth with trials)' });
  rmSync(dir, { recursive: true, force: true });
  return rows;
}
