/**
 * Benchmark 5 (issue 5's store figures, in `npm run bench`): the trial store's fsynced commit per
 * trial beside a bare SQLite insert with the same pragmas, and the resume check beside a bare
 * primary-key lookup on the same table.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TrialStore } from '../src/live/store.js';
import { trial } from './store.js';
import type { BenchRow } from './util.js';

const RUN = { name: 'bench', hash: 'h', json: '{}', toolVersion: '0', started: 'x' };

export function benchStore(N = 2000, M = 200_000): BenchRow[] {
  // On disk (not tmpfs): fsync is what a commit costs.
  const dir = mkdtempSync(join(tmpdir(), 'samegame-store-'));
  try {
    const store = TrialStore.open(join(dir, 'commit.sqlite'));
    store.openRun(RUN);
    let t = performance.now();
    for (let i = 0; i < N; i++) store.write(trial(i));
    const commit = (performance.now() - t) / N;
    store.close();
    const raw = new Database(join(dir, 'raw.sqlite'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = FULL');
    raw.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
    const ins = raw.prepare('INSERT INTO t (k, v) VALUES (?, ?)');
    t = performance.now();
    for (let i = 0; i < N; i++) ins.run(i, 'x'.repeat(1800));
    const floor = (performance.now() - t) / N;
    raw.close();

    const path = join(dir, 'big.sqlite');
    const big = TrialStore.open(path);
    big.openRun(RUN);
    const db = (big as unknown as { db: Database.Database }).db;
    db.transaction(() => { for (let i = 0; i < M; i++) big.write(trial(i)); })();
    t = performance.now();
    let done = 0;
    for (let i = 0; i < M; i++) {
      const x = trial(i);
      if (big.isComplete(1, { model: x.model, game: x.game, framing: x.framing, rep: x.rep })) done++;
    }
    const resume = ((performance.now() - t) * 1000) / M;
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
