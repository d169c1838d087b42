/**
 * Benchmark 5 (the store figures, in `npm run bench`): the trial store's fsynced commit per
 * trial beside a bare SQLite insert with the same pragmas, and the resume check beside a bare
 * primary-key lookup on the same table.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TrialStore } from '../src/live/store/store.js';
import type { TrialRecord } from '../src/live/types.js';
import type { BenchRow } from './util.js';

/** The benchmark's synthetic trial i: 4 models × 4 games × 8 framings, realistic text sizes. */
const MODELS = 4, GAMES = 4, FRAMINGS = 8;
const PROMPT = 'x'.repeat(600);
const RESPONSE = JSON.stringify({ id: 'r', model: 'snap', output: [{ type: 'message', content: [{ type: 'output_text', text: 'C' }] }], pad: 'y'.repeat(1200) });

export function trial(i: number): TrialRecord {
  const cell = i % (MODELS * GAMES * FRAMINGS);
  return {
    runId: 1, model: `m${cell % MODELS}`, game: `g${Math.floor(cell / MODELS) % GAMES}`, framing: `f${Math.floor(cell / (MODELS * GAMES))}`,
    rep: Math.floor(i / (MODELS * GAMES * FRAMINGS)), factors: { world: 'w' }, prompt: PROMPT, request: '{"model":"m","top_logprobs":20}',
    response: RESPONSE, text: 'C', action: i % 3 === 0 ? 'D' : 'C', pCooperate: (i % 97) / 97, scoring: '{"method":"first-token"}',
    modelSnapshot: 'snap', inputTokens: 150, outputTokens: 1, latencyMs: 300, status: 'ok', error: null, attempts: 1,
  };
}

export const RUN = { name: 'bench', hash: 'h', json: '{}', toolVersion: '0', started: 'x' };

/** ms per trial to commit N trials, each in its own fsynced transaction (as the runner writes). */
export function commitPerTrial(store: TrialStore, N: number): number {
  const t = performance.now();
  for (let i = 0; i < N; i++) store.write(trial(i));
  return (performance.now() - t) / N;
}

/** µs per trial for the runner's "is this trial complete?" check over M stored trials; and how many were. */
export function resumePerTrial(store: TrialStore, M: number): { us: number; done: number } {
  const t = performance.now();
  let done = 0;
  for (let i = 0; i < M; i++) {
    const x = trial(i);
    if (store.isComplete(1, { model: x.model, game: x.game, framing: x.framing, rep: x.rep })) done++;
  }
  return { us: ((performance.now() - t) * 1000) / M, done };
}

export function benchStore(N = 2000, M = 200_000): BenchRow[] {
  // On disk (not tmpfs): fsync is what a commit costs.
  const dir = mkdtempSync(join(tmpdir(), 'samegame-store-'));
  try {
    const store = TrialStore.open(join(dir, 'commit.sqlite'));
    store.openRun(RUN);
    const commit = commitPerTrial(store, N);
    store.close();
    const raw = new Database(join(dir, 'raw.sqlite'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = FULL');
    raw.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
    const ins = raw.prepare('INSERT INTO t (k, v) VALUES (?, ?)');
    let t = performance.now();
    for (let i = 0; i < N; i++) ins.run(i, 'x'.repeat(1800));
    const floor = (performance.now() - t) / N;
    raw.close();

    const path = join(dir, 'big.sqlite');
    const big = TrialStore.open(path);
    big.openRun(RUN);
    const db = (big as unknown as { db: Database.Database }).db;
    db.transaction(() => { for (let i = 0; i < M; i++) big.write(trial(i)); })();
    const { us: resume, done } = resumePerTrial(big, M);
    const pk = db.prepare('SELECT 1 FROM trials WHERE run_id = ? AND model = ? AND game = ? AND framing = ? AND rep = ?').pluck();
    t = performance.now();
    for (let i = 0; i < M; i++) { const x = trial(i); pk.get(1, x.model, x.game, x.framing, x.rep); }
    const pkFloor = ((performance.now() - t) * 1000) / M;
    big.close();
    if (done !== M) throw new Error(`resume found ${done} of ${M}`);
    return [
      { name: `store: commit one trial (own transaction, WAL, synchronous FULL; ${N} trials)`, value: commit, unit: 'ms', baseline: floor, baselineName: 'bare SQLite insert, same pragmas' },
      { name: `store: resume check per stored trial (${M.toLocaleString('en-US')} trials)`, value: resume, unit: 'µs', baseline: pkFloor, baselineName: 'bare primary-key lookup' },
    ];
  } finally {
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  }
}
