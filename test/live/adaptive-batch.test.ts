/**
 * An adaptive run through the Batch API (OpenAI wire format, loopback): each wave is one batch, the looks read the store as
 * in a synchronous run, so the same answers give the same store as the synchronous waves; no trial is requested twice,
 * also when the run is left with its first wave's batch open (--no-wait) and run again to collect it and go on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBatchLoopback, type BatchLoopback } from '../helpers/loopback-batch.js';
import { startLoopback, type Loopback } from '../helpers/loopback-openai.js';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { cellAnswer, requestedAgain, SENTINEL, storeFacts } from '../helpers/batch-run.js';

let dir: string;
let bsrv: BatchLoopback;
let ssrv: Loopback;
const env = () => cleanEnv({ OPENAI_API_KEY: SENTINEL });
const FIXED = 2 * 2 * 2 * 100; // models × games × framings × max_trials

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-adaptive-batch-'));
  bsrv = await startBatchLoopback({ answer: cellAnswer });
  ssrv = await startLoopback({ answer: cellAnswer });
  writeFileSync(join(dir, 'ad.yaml'), `name: ad
models:
  - { id: A, provider: openai-responses, model: loop-a }
  - { id: B, provider: openai-responses, model: loop-b }
games: [prisoners-dilemma, stag-hunt]
framings: [business, friend-sharing]
trials: 100
stop: { target: shift, decide: sign, wave: 20, method: betting }
`);
});
afterAll(async () => {
  await bsrv.close();
  await ssrv.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = (store: string) => {
  const db = new Database(store, { readonly: true });
  try {
    return (db.prepare('SELECT model, game, framing, rep, status, action FROM trials ORDER BY model, game, framing, rep').all() as object[])
      .map((r) => JSON.stringify(r));
  } finally { db.close(); }
};
const args = (store: string, url: string, extra: string[] = []) => ['run', join(dir, 'ad.yaml'), '--store', store, '--base-url', url, ...extra];

describe('run --batch on a design with a stop rule: one batch per wave', () => {
  it('stops early with the store of the synchronous waves; every trial requested once; a batch left open is collected on the next run', async () => {
    const sync = join(dir, 's.sqlite'), batch = join(dir, 'b.sqlite');
    expect((await runCli(args(sync, ssrv.url), { env: env() })).code).toBe(0);
    const first = await runCli(args(batch, bsrv.url, ['--batch', '--poll', '0.01', '--no-wait']), { env: env() });
    expect(first.code, first.stderr).toBe(0);
    expect(storeFacts(batch).rows).toBe(0); // the first wave's batch submitted, not collected
    expect(bsrv.batches.size).toBe(2); // the first wave: one batch per model (each model's own batch file)
    const second = await runCli(args(batch, bsrv.url, ['--batch', '--poll', '0.01']), { env: env() });
    expect(second.code, second.stderr).toBe(0);
    const want = rows(sync);
    expect(want.length).toBeLessThan(FIXED);
    console.log(`adaptive batch run: ${want.length} of ${FIXED} trials, ${bsrv.batches.size} batches`);
    expect(rows(batch)).toEqual(want);
    const f = storeFacts(batch);
    expect([f.rows, f.distinct, f.complete]).toEqual([want.length, want.length, want.length]);
    // one batch per model per wave (each created once), nothing requested twice
    expect([...bsrv.createdPerChunk.values()].every((n) => n === 1)).toBe(true);
    expect(bsrv.batches.size).toBeGreaterThanOrEqual(4);
    expect(requestedAgain(bsrv.outcomes)).toEqual([]);
    expect([...bsrv.outcomes.values()].every((o) => o.length === 1)).toBe(true);
    expect(bsrv.outcomes.size).toBe(want.length);
  }, 120_000);

  it('a design that batches some models and not others is refused in one line, before any call', async () => {
    const mixed = join(dir, 'mixed.yaml');
    writeFileSync(mixed, `name: mixed
models:
  - { id: A, provider: openai-responses, model: loop-a, batch: true }
  - { id: B, provider: openai-responses, model: loop-b }
games: [prisoners-dilemma]
framings: [business, friend-sharing]
trials: 40
stop: { target: shift, decide: sign, wave: 20 }
`);
    const r = await runCli(['run', mixed, '--store', join(dir, 'm.sqlite'), '--base-url', bsrv.url], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('every model synchronously, or every model through its batch API');
  });
});
