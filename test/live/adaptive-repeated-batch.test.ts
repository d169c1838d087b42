/**
 * An adaptive repeated game against loopback OpenAI-format servers (deterministic answers from the prompt): through the
 * Batch API each wave's matches are played round-synchronously (round t of every match of the wave is one batch per
 * model), the looks read the stored moves as in a synchronous run, so the batch run stores the decisions of the
 * synchronous waves; every decision is requested once; killed (SIGKILL) between a batch's create call and its commit and
 * after a collect, and resumed, it ends with the same store, no batch created twice. Synchronously, SIGKILLed mid-wave
 * (the server holds its answers after a count, so the run is certainly mid-wave) and resumed, it ends with the same store,
 * no stored decision requested again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startBatchLoopback, type BatchLoopback } from '../helpers/loopback-batch.js';
import { startLoopback, type Loopback } from '../helpers/loopback-openai.js';
import { cleanEnv, runCli, spawnCli, startCli } from '../helpers/cli.js';
import { optionAnswer } from '../helpers/repeated.js';
import { requestedAgain } from '../helpers/batch-run.js';

const ROUNDS = 4, TRIALS = 30;
const FIXED = 2 * TRIALS * ROUNDS * (2 + 1); // framings × matches × rounds × (self: 2 seats, always-defect: 1)
let dir: string;
let DESIGN: string;
let bsrv: BatchLoopback;
let ssrv: Loopback;
const env = (extra: Record<string, string> = {}) => cleanEnv({ OPENAI_API_KEY: 'sk-loop', ...extra });
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-adaptive-rbatch-'));
  DESIGN = join(dir, 'ad.yaml');
  writeFileSync(DESIGN, `name: ad
models:
  - { id: A, provider: openai-responses, model: loop }
games:
  - id: akata-pd
    payoffs:
      C: { C: [8, 8], D: [0, 10] }
      D: { C: [10, 0], D: [5, 5] }
framings:
  - { id: jf, family: label-perturbation, labels: [J, F] }
  - { id: km, family: label-perturbation, labels: [K, M] }
trials: ${TRIALS}
decoding: { temperature: 0, max_tokens: 1, seed: 1 }
play:
  rounds: ${ROUNDS}
  opponents: [self, always-defect]
  prompt: akata
  history: akata
  option_order: shuffle
  on_invalid: forfeit
stop: { target: rate, half_width: 0.2, wave: 5 }
`);
  bsrv = await startBatchLoopback({ answer: (p) => optionAnswer(p) });
  ssrv = await startLoopback({ answer: (p) => optionAnswer(p) });
});
afterAll(async () => { await bsrv.close(); await ssrv.close(); rmSync(dir, { recursive: true, force: true }); });

function decisions(path: string): string[] {
  const db = new Database(path, { readonly: true });
  const r = db.prepare(`SELECT model, framing, opponent, match_id, round, seat, status, action, text, prompt FROM trial_records
    ORDER BY match_id, round, seat`).all().map((x) => JSON.stringify(x));
  db.close();
  return r;
}
/** The trial keys (model|game|framing|rep) of the decisions stored. */
function storedKeys(path: string): string[] {
  const db = new Database(path); // read-write: opening recovers the WAL a killed process left
  const r = (db.prepare(`SELECT model, game, framing, rep FROM trials WHERE status != 'error'`).all() as { model: string; game: string; framing: string;
    rep: number }[]).map((x) => `${x.model}|${x.game}|${x.framing}|${x.rep}`);
  db.close();
  return r;
}
const args = (store: string, url: string, extra: string[] = []) => ['run', DESIGN, '--store', store, '--base-url', url, ...extra];

it('batch waves (the first left open, then collected) store the synchronous waves\' decisions, fewer calls; a batch per round; none asked twice', async () => {
  const sync = join(dir, 's.sqlite'), batch = join(dir, 'b.sqlite');
  const s = await runCli(args(sync, ssrv.url, ['--concurrency', '8']), { env: env() });
  expect(s.code, s.stderr).toBe(0);
  // The first wave's round-1 batch submitted and not waited for; the next run collects it and goes on.
  const first = await runCli(args(batch, bsrv.url, ['--batch', '--poll', '0.01', '--no-wait']), { env: env() });
  expect(first.code, first.stderr).toBe(0);
  expect(decisions(batch)).toEqual([]);
  expect(bsrv.batches.size).toBe(1);
  expect(first.stderr + first.stdout).toContain('1 batch open; the results are collected when the same command runs again');
  const b = await runCli(args(batch, bsrv.url, ['--batch', '--poll', '0.01']), { env: env() });
  expect(b.code, b.stderr).toBe(0);
  const want = decisions(sync);
  expect(want.length).toBeLessThan(FIXED);
  expect(decisions(batch)).toEqual(want);
  console.log(`adaptive repeated batch run: ${want.length} of ${FIXED} calls, ${bsrv.batches.size} batches`);
  expect(b.stderr).toMatch(/wave 1: \d+ open, \d+ stopped; 20 matches, 120 calls so far \(the fixed design: 120 matches, 720 calls\)/);
  // each batch holds the decisions of one round (rep → round: ⌊rep / 2⌋ mod rounds + 1)
  for (const f of bsrv.files.values()) {
    const reps = f.trim().split('\n').map((l) => Number((JSON.parse(l) as { custom_id: string }).custom_id.split('|')[3]));
    const rounds = new Set(reps.map((rep) => Math.floor(rep / 2) % ROUNDS + 1));
    expect(rounds.size).toBe(1);
  }
  expect(bsrv.batches.size % ROUNDS).toBe(0); // whole waves, each of `rounds` batches
  expect(requestedAgain(bsrv.outcomes)).toEqual([]);
  expect(bsrv.outcomes.size).toBe(want.length);
}, 120_000);

it('killed by SIGKILL at two batch crash points and resumed: the same store, no batch created twice', async () => {
  const srv = await startBatchLoopback({ answer: (p) => optionAnswer(p) });
  try {
    const store = join(dir, 'crash.sqlite');
    for (const point of ['create-call', 'collected']) {
      const r = await spawnCli(args(store, srv.url, ['--batch', '--poll', '0.01']), { env: env({ SAMEGAME_CRASH_AT: point }) });
      expect(r.signal, point).toBe('SIGKILL');
    }
    const r = await runCli(args(store, srv.url, ['--batch', '--poll', '0.01']), { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(decisions(store)).toEqual(decisions(join(dir, 's.sqlite')));
    expect([...srv.createdPerChunk.values()].every((n) => n === 1)).toBe(true);
    expect(requestedAgain(srv.outcomes)).toEqual([]);
  } finally {
    await srv.close();
  }
}, 120_000);

it('synchronous waves SIGKILLed mid-wave and resumed: the uninterrupted store, no stored decision requested again', async () => {
  let limit = 150, passed = 0;
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => { release = r; });
  let onHeld: () => void = () => {};
  const held = new Promise<void>((r) => { onHeld = r; });
  const srv = await startLoopback({ answer: (p) => optionAnswer(p), hold: () => { if (passed++ < limit) return Promise.resolve(); onHeld(); return gate; } });
  try {
    const store = join(dir, 'killed.sqlite');
    const a = args(store, srv.url, ['--concurrency', '4']);
    const run = startCli(a, { env: env() });
    await held; // wave 1 is 120 decisions: the 150th answer is in wave 2
    run.child.kill('SIGKILL');
    expect((await run.done).signal).toBe('SIGKILL');
    release();
    const before = storedKeys(store);
    expect(before.length).toBeGreaterThan(120);
    const asked = new Map(srv.requests);
    limit = Infinity;
    const r = await runCli(a, { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(decisions(store)).toEqual(decisions(join(dir, 's.sqlite')));
    // every decision stored before the kill: not requested by the second run
    expect(before.filter((k) => (srv.requests.get(k) ?? 0) > (asked.get(k) ?? 0))).toEqual([]);
    expect(before.every((k) => srv.requests.has(k))).toBe(true); // the keys are the server's
  } finally {
    release();
    await srv.close();
  }
}, 120_000);
