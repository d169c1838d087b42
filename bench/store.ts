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
import { TrialStore } from '../src/live/store.js';
import type { TrialRecord } from '../src/live/types.js';

const RUN = { name: 'bench', hash: 'h', json: '{}', toolVersion: '0', started: 'x' };
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
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

export function storeReport(N: number, M: number): void {
const dir = mkdtempSync(join(tmpdir(), 'sg-bench-'));
try {
  // 1. Commit rate.
  const a = TrialStore.open(join(dir, 'commit.sqlite'));
  a.openRun(RUN);
  let t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) a.write(trial(i));
  const commitMs = ms(t0);
  a.close();
  console.log(`commit: ${N} trials, one fsynced transaction each: ${commitMs.toFixed(0)} ms = ${(N / (commitMs / 1000)).toFixed(0)} trials/s (${(commitMs / N).toFixed(3)} ms/trial)`);

  // 2 and 3. A store of M trials.
  const path = join(dir, 'big.sqlite');
  const b = TrialStore.open(path);
  b.openRun(RUN);
  const db = (b as unknown as { db: { transaction: (f: () => void) => () => void } }).db;
  t0 = process.hrtime.bigint();
  db.transaction(() => { for (let i = 0; i < M; i++) b.write(trial(i)); })();
  console.log(`fill: ${M} trials in one transaction: ${(ms(t0) / 1000).toFixed(1)} s; file ${(statSync(path).size / 2 ** 20).toFixed(0)} MiB (+ WAL ${(statSync(`${path}-wal`).size / 2 ** 20).toFixed(0)} MiB)`);
  b.close();

  const c = TrialStore.open(path);
  t0 = process.hrtime.bigint();
  let done = 0;
  for (let i = 0; i < M; i++) {
    const t = trial(i);
    if (c.isComplete(1, { model: t.model, game: t.game, framing: t.framing, rep: t.rep })) done++;
  }
  const resumeMs = ms(t0);
  console.log(`resume: ${done}/${M} trials found complete in ${(resumeMs / 1000).toFixed(2)} s (${((resumeMs * 1000) / M).toFixed(2)} µs per trial; includes building each key)`);
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
