/**
 * Trial-store benchmark (a measurement, not a test): `npx tsx bench/store.ts [N] [M]`.
 *   1. commit rate: N trials written one transaction each (WAL, synchronous = FULL), as the runner does;
 *   2. resume cost: the runner's "is this trial complete?" lookup for every one of M stored trials;
 *   3. analysis over M trials: cellCounts (SQL GROUP BY) and cellProbabilities (streamed).
 * The M-trial store is filled in one transaction (fast), since only reading is timed there.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrialStore } from '../src/live/store/store.js';
import { commitPerTrial, resumePerTrial, RUN, trial } from './store-section.js';

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

export function storeReport(N: number, M: number): void {
const dir = mkdtempSync(join(tmpdir(), 'sg-bench-'));
try {
  // 1. Commit rate.
  const a = TrialStore.open(join(dir, 'commit.sqlite'));
  a.openRun(RUN);
  const perTrial = commitPerTrial(a, N);
  a.close();
  console.log(`commit: ${N} trials, one fsynced transaction each: ${(perTrial * N).toFixed(0)} ms = ${(1000 / perTrial).toFixed(0)} trials/s (${perTrial.toFixed(3)} ms/trial)`);

  // 2 and 3. A store of M trials.
  const path = join(dir, 'big.sqlite');
  const b = TrialStore.open(path);
  b.openRun(RUN);
  const db = (b as unknown as { db: { transaction: (f: () => void) => () => void } }).db;
  let t0 = process.hrtime.bigint();
  db.transaction(() => { for (let i = 0; i < M; i++) b.write(trial(i)); })();
  console.log(`fill: ${M} trials in one transaction: ${(ms(t0) / 1000).toFixed(1)} s; file ${(statSync(path).size / 2 ** 20).toFixed(0)} MiB (+ WAL ${(statSync(`${path}-wal`).size / 2 ** 20).toFixed(0)} MiB)`);
  b.close();

  const c = TrialStore.open(path);
  const { us, done } = resumePerTrial(c, M);
  console.log(`resume: ${done}/${M} trials found complete in ${((us * M) / 1e6).toFixed(2)} s (${us.toFixed(2)} µs per trial; includes building each key)`);
  const mem0 = process.memoryUsage().rss;
  t0 = process.hrtime.bigint();
  const counts = c.cellCounts(1);
  console.log(`cellCounts: ${counts.length} cells over ${M} trials in ${ms(t0).toFixed(0)} ms`);
  t0 = process.hrtime.bigint();
  let cells = 0, values = 0;
  for (const p of c.cellProbabilities(1)) { cells++; values += p.values.length; }
  console.log(`cellProbabilities: ${cells} cells, ${values} values streamed in ${ms(t0).toFixed(0)} ms; RSS change ${((process.memoryUsage().rss - mem0) / 2 ** 20).toFixed(0)} MiB`);
  c.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  storeReport(Number(process.argv[2] ?? 5_000), Number(process.argv[3] ?? 1_000_000));
}
