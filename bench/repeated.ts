/**
 * Benchmark: repeated-game throughput. A 1,000-match, 10-round design (one model against
 * tit-for-tat: 10,000 calls) run by `samegame run` (cold process) against a loopback server that
 * answers in 50 ms and allows LIMIT requests per minute (sliding window; 429 + Retry-After
 * beyond), with --rpm LIMIT. Rounds are sequential within a match only, so the run should keep
 * the limit: reported is the rate the server saw once warm (after the first 10 % of its
 * requests), over the limit.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLoopback } from '../test/helpers/loopback-openai.js';
import { optionAnswer } from '../test/helpers/repeated.js';
import { timeCliAsync } from './process.js';
import { minuteLimit, type BenchRow } from './util.js';

const LIMIT = 3000;
const MATCHES = 1000;
const ROUNDS = 10;

const design = `name: bench-repeated
models: [{ id: loop, provider: openai-chat, api_key_env: OPENAI_API_KEY }]
games: [{ id: akata-pd, payoffs: { C: { C: [8, 8], D: [0, 10] }, D: { C: [10, 0], D: [5, 5] } } }]
framings: [{ id: jf, family: label-perturbation, labels: [J, F] }]
trials: ${MATCHES}
decoding: { temperature: 0, max_tokens: 1 }
play: { rounds: ${ROUNDS}, opponents: [tit-for-tat], prompt: akata, history: akata, option_order: shuffle }
`;

export async function benchRepeated(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-repeated-'));
  const file = join(dir, 'bench-repeated.yaml');
  writeFileSync(file, design);
  const limit = minuteLimit(LIMIT);
  const srv = await startLoopback({ delayMs: 50, answer: (p) => optionAnswer(p), fault: limit.fault });
  process.env.OPENAI_API_KEY ??= 'sk-bench-loopback';
  const store = join(dir, 'repeated.sqlite');
  const run = await timeCliAsync(['run', file, '--store', store, '--base-url', srv.url, '--concurrency', '64', '--rpm', String(LIMIT), '-q']);
  await srv.close();
  if (run.code !== 0) throw new Error(`run failed: ${run.stderr}`);
  const db = new Database(store, { readonly: true });
  const s = db.prepare("SELECT count(*) AS n, sum(status IN ('ok', 'invalid')) AS done, count(DISTINCT match_id) AS matches FROM trials").get() as { n: number; done: number; matches: number };
  db.close();
  const warm = limit.served.slice(Math.floor(limit.served.length / 10));
  const rpm = ((warm.length - 1) / (warm[warm.length - 1] - warm[0])) * 60_000;
  return [{
    name: `repeated: ${MATCHES} matches × ${ROUNDS} rounds against tit-for-tat (${s.n} calls), 50 ms latency, server limit ${LIMIT}/min (--rpm ${LIMIT}, concurrency 64)`,
    value: rpm, unit: 'req/min', baseline: LIMIT, baselineName: 'server limit', target: '≥ 0.95', peakRssMb: run.peakRssMb,
    note: `rate once warm (after the first 10 % of requests); ${s.done} decisions stored in ${s.matches} matches, ${limit.limited()} 429s served, ${run.seconds.toFixed(1)} s`,
  }];
}
