/**
 * Benchmark 4: live throughput. `samegame run` (cold process) against a loopback server that
 * answers in 200 ms and allows 600 requests per minute (sliding window; 429 + Retry-After beyond).
 * Reports achieved requests per minute over the limit, retries, lost trials, and the runner's own
 * overhead per call (runner at concurrency 1 with no latency, beside a bare fetch loop).
 */
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startLoopback } from '../test/helpers/loopback-openai.js';
import { timeCliAsync } from './process.js';
import { minuteLimit, type BenchRow } from './util.js';

const QUICKSTART = 'data/designs/quickstart.yaml';
const LIMIT = 600;

function storeStats(path: string) {
  const db = new Database(path, { readonly: true });
  const r = db.prepare(`SELECT count(*) AS trials, sum(status IN ('ok', 'invalid')) AS done, sum(attempts) AS attempts FROM trials`).get() as { trials: number; done: number; attempts: number };
  db.close();
  return r;
}

export async function benchLive(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-live-'));
  const limit = minuteLimit(LIMIT);
  const srv = await startLoopback({ delayMs: 200, fault: limit.fault });
  const store = join(dir, 'live.sqlite');
  const run = await timeCliAsync(['run', QUICKSTART, '--store', store, '--provider', 'openai-chat', '--base-url', srv.url, '--model', 'loop',
    '--concurrency', '8', '--rpm', String(LIMIT), '-q']);
  await srv.close();
  if (run.code !== 0) throw new Error(`run failed: ${run.stderr}`);
  const s = storeStats(store);
  const rpm = s.done / (run.seconds / 60);
  const rows: BenchRow[] = [
    { name: `live: ${s.trials} trials, 200 ms latency, server limit ${LIMIT}/min (--rpm ${LIMIT}, concurrency 8)`, value: rpm, unit: 'req/min',
      baseline: LIMIT, baselineName: 'server limit', target: '≥ 0.95', peakRssMb: run.peakRssMb,
      note: `${s.attempts - s.trials} retries, ${limit.limited()} 429s served, ${s.trials - s.done} lost trials, ${run.seconds.toFixed(1)} s` },
  ];

  // Overhead per call: the runner at concurrency 1 with an instant server, beside bare fetch calls.
  const fast = await startLoopback({});
  const store2 = join(dir, 'fast.sqlite');
  const r2 = await timeCliAsync(['run', QUICKSTART, '--store', store2, '--provider', 'openai-chat', '--base-url', fast.url, '--model', 'loop', '--concurrency', '1', '-q']);
  if (r2.code !== 0) throw new Error(`run failed: ${r2.stderr}`);
  const n = storeStats(store2).trials;
  const body = JSON.stringify({ model: 'loop', messages: [{ role: 'user', content: 'Answer with exactly one word, either C or D, and nothing else.' }], logprobs: true, top_logprobs: 20, max_tokens: 8 });
  const t = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${fast.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-samegame-trial': `raw|${i}` }, body });
    await res.json();
  }
  const raw = (performance.now() - t) / n;
  await fast.close();
  rows.push({ name: `live: runner time per call at concurrency 1, instant server (${n} calls, store fsync included)`, value: (r2.seconds * 1000) / n, unit: 'ms',
    baseline: raw, baselineName: 'bare fetch + JSON per call', note: `overhead ≈ ${((r2.seconds * 1000) / n - raw).toFixed(2)} ms per call (includes process start spread over the calls)`, peakRssMb: r2.peakRssMb });
  return rows;
}
