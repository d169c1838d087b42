/**
 * Batch runs against a loopback server speaking the Files and Batches wire format: every trial
 * stored once, only failed and expired trials sent again, the same request bodies and the same
 * analysis tables as a synchronous run of the same answers, and the key nowhere on disk or in logs.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTables, type AnalyzeResult } from '../../src/commands/analyze.js';
import { startBatchLoopback, type BatchLoopback } from '../helpers/loopback-batch.js';
import { startLoopback, type Loopback } from '../helpers/loopback-openai.js';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { batchArgs, cellAnswer, QUICKSTART, QUICKSTART_TRIALS, requestedAgain, SENTINEL, storeFacts } from '../helpers/batch-run.js';
import { commandsMsg } from '../../src/commands/messages.js';
import { liveBatchMsg } from '../../src/live/batch/messages.js';

let dir: string;
let bsrv: BatchLoopback;
let ssrv: Loopback;
const env = () => cleanEnv({ OPENAI_API_KEY: SENTINEL });
// Trials with rep 3 or 17 fail as line-level errors the first time; the second batch created expires.
const failsFirst = (k: string) => /\|(3|17)$/.test(k);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-batch-'));
  bsrv = await startBatchLoopback({ answer: cellAnswer, lineError: (k, n) => n === 1 && failsFirst(k), expires: (n) => n === 2 });
  ssrv = await startLoopback({ answer: cellAnswer });
});
afterAll(async () => {
  await bsrv.close();
  await ssrv.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('samegame run --batch: the quickstart through the Batch API', () => {
  const store = () => join(dir, 'b.sqlite');
  const sync = () => join(dir, 's.sqlite');
  let batchRun: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    batchRun = await runCli(batchArgs(store(), bsrv.url, ['--batch-size', '150', '--price-in', '1', '--price-out', '2']), { env: env() });
    const s = await runCli(['run', QUICKSTART, '--store', sync(), '--provider', 'openai-responses', '--base-url', ssrv.url, '--model', 'loop'], { env: env() });
    expect(s.code).toBe(0);
  }, 120_000);

  it('stores every trial exactly once, in batches of at most --batch-size lines, one batch per chunk', () => {
    expect(batchRun.code).toBe(0);
    const f = storeFacts(store());
    expect([f.rows, f.distinct, f.complete]).toEqual([QUICKSTART_TRIALS, QUICKSTART_TRIALS, QUICKSTART_TRIALS]);
    expect(f.chunks.every((c) => c.state === 'collected' && c.lines <= 150)).toBe(true);
    expect(f.chunks.length).toBe(bsrv.createdPerChunk.size);
    expect([...bsrv.createdPerChunk.values()].every((n) => n === 1)).toBe(true);
    expect([...bsrv.batches.values()].every((b) => b.total >= 1 && b.total <= 150)).toBe(true);
    // Every chunk's file is kept beside the store.
    expect(readdirSync(join(dir, 'b.sqlite.batches')).filter((f) => f.endsWith('.jsonl'))).toHaveLength(f.chunks.length);
  });

  it('sends again exactly the trials that failed or expired, and never one already answered', () => {
    const resent = [...bsrv.outcomes].filter(([, o]) => o.length > 1).map(([k]) => k).sort();
    const failedFirst = [...bsrv.outcomes].filter(([, o]) => o[0] !== 'ok').map(([k]) => k).sort();
    expect(resent).toEqual(failedFirst);
    const kinds = new Set([...bsrv.outcomes.values()].map((o) => o[0]));
    expect(kinds).toEqual(new Set(['ok', 'error', 'expired']));
    expect(requestedAgain(bsrv.outcomes)).toEqual([]);
    expect(bsrv.outcomes.size).toBe(QUICKSTART_TRIALS);
    expect([...bsrv.outcomes.values()].every((o) => o.at(-1) === 'ok')).toBe(true);
  });

  it('sends the very bodies the synchronous provider sends', () => {
    const syncBody = new Map(ssrv.log.map((l) => [l.key, JSON.parse(l.body) as unknown]));
    let n = 0;
    for (const [id, text] of bsrv.files) {
      if (!id.startsWith('file-in-')) continue;
      for (const line of text.trim().split('\n')) {
        const l = JSON.parse(line) as { custom_id: string; method: string; url: string; body: unknown };
        expect([l.method, l.url]).toEqual(['POST', '/v1/responses']);
        expect(l.body).toEqual(syncBody.get(l.custom_id));
        n++;
      }
    }
    expect(n).toBeGreaterThanOrEqual(QUICKSTART_TRIALS);
  });

  it('analyze gives the same tables as the synchronous run of the same answers', () => {
    const a = analyzeTables({ store: store(), reps: 200 }) as AnalyzeResult;
    const b = analyzeTables({ store: sync(), reps: 200 }) as AnalyzeResult;
    expect(a.table3).toEqual(b.table3);
    const csv = (r: AnalyzeResult) => r.files.filter((f) => f.path.endsWith('.csv')).map((f) => [f.path.split('/').pop(), f.content]);
    expect(csv(a).length).toBeGreaterThan(0);
    expect(csv(a)).toEqual(csv(b));
  });

  it('keeps the API key out of the store, the batch files, the logs and the exports (sentinel)', async () => {
    expect(bsrv.log.some((l) => l.authorization === `Bearer ${SENTINEL}`)).toBe(true);
    const exp = await runCli(['export', store(), '--format', 'jsonl']);
    const list = await runCli(['batches', store()]);
    const texts = [batchRun.stdout, batchRun.stderr, exp.stdout, exp.stderr, list.stdout, list.stderr];
    const files = [store(), `${store()}-wal`, `${store()}-shm`, ...readdirSync(join(dir, 'b.sqlite.batches')).map((f) => join(dir, 'b.sqlite.batches', f))];
    for (const f of files.filter(existsSync)) texts.push(readFileSync(f).toString('latin1'));
    expect(texts.filter((t) => t.includes(SENTINEL) || t.includes(SENTINEL.slice(3, 20)))).toEqual([]);
    expect(exp.stdout.trim().split('\n')).toHaveLength(QUICKSTART_TRIALS);
  });

  it('`samegame batches STORE` lists every chunk with its state, requests and batch id', async () => {
    const r = await runCli(['batches', store()]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0].split(/\s+/)).toEqual(['chunk', 'run', 'model', 'kind', 'state', 'status', 'requests', 'completed', 'failed', 'stored', 'batch',
      'cost_usd']);
    expect(lines).toHaveLength(1 + storeFacts(store()).chunks.length);
    expect(lines.slice(1).every((l) => /\sdecision\s+collected\s+(completed|expired)\s+\d+\s+\d+\s+\d+\s+\d+\s+batch_\d+/.test(l))).toBe(true);
    // Cost so far, by hand: each answer uses 40 input and 2 output tokens (the loopback's usage), at
    // $1 and $2 per million, half price in a batch: 44e-6 / 2 per stored trial.
    for (const l of lines.slice(1)) {
      const cells = l.split(/\s+/);
      expect(cells[11]).toBe(((Number(cells[9]) * 44e-6) / 2).toFixed(4));
    }
  });
});

describe('--no-wait, `batches --cancel`, --dry-run and refusals', () => {
  it('--no-wait submits and exits; --cancel cancels; the next run collects the cancelled batches and sends their trials again', async () => {
    const srv = await startBatchLoopback({ answer: cellAnswer });
    try {
      const store = join(dir, 'nw.sqlite');
      const args = batchArgs(store, srv.url, ['--batch-size', '400']);
      const first = await runCli([...args, '--no-wait'], { env: env() });
      expect(first.code).toBe(0);
      expect(first.stderr).toContain(commandsMsg.submitted(2));
      const f1 = storeFacts(store);
      expect([f1.rows, f1.chunks.map((c) => c.state)]).toEqual([0, ['created', 'created']]);
      // Resumed without --batch: every trial waits in an open batch, so asking it now would bill it twice — refused before any call.
      const asked = srv.log.length;
      const sync = await runCli(args.filter((a) => a !== '--batch'), { env: env() });
      expect(sync.code).toBe(2);
      expect(sync.stderr.trim()).toBe(`samegame: ${commandsMsg.askedInOpenBatches(store, QUICKSTART_TRIALS)}`);
      expect([storeFacts(store).rows, srv.log.length]).toEqual([0, asked]);
      const cancel = await runCli(['batches', store, '--cancel'], { env: env() });
      expect(cancel.code).toBe(0);
      expect(cancel.stderr).toContain(commandsMsg.cancelled(2));
      expect(cancel.stdout.trim().split('\n').slice(1).every((l) => /\screated\s/.test(l))).toBe(true);
      const second = await runCli(args, { env: env() });
      expect(second.code).toBe(0);
      const f2 = storeFacts(store);
      expect([f2.rows, f2.distinct, f2.complete]).toEqual([QUICKSTART_TRIALS, QUICKSTART_TRIALS, QUICKSTART_TRIALS]);
      expect(f2.chunks).toHaveLength(4);
      expect([...srv.createdPerChunk.values()]).toEqual([1, 1, 1, 1]);
      expect([...srv.outcomes.values()].every((o) => o.join() === 'cancelled,ok')).toBe(true);
    } finally {
      await srv.close();
    }
  }, 120_000);

  it('--batch --dry-run: files, requests, tokens and the cost at batch prices (half, unless the design says otherwise)', async () => {
    const store = join(dir, 'dry.sqlite');
    const common = ['run', QUICKSTART, '--store', store, '--provider', 'openai-chat', '--price-in', '1', '--price-out', '2', '--dry-run'];
    const b = await runCli([...common, '--batch', '--batch-size', '150']);
    const s = await runCli(common);
    expect([b.code, s.code]).toEqual([0, 0]);
    // By hand: 400 trials per model in files of at most 150 → 3 files per model.
    expect(b.stdout).toContain(`dry run (batch): 6 files, ${QUICKSTART_TRIALS} requests (${QUICKSTART_TRIALS} trials, 0 already stored, 0 in open batches)`);
    const tokens = (t: string) => /estimated tokens: (\d+) input .*, (\d+) output/.exec(t)!.slice(1).map(Number);
    expect(tokens(b.stdout)).toEqual(tokens(s.stdout));
    const [i, o] = tokens(s.stdout);
    expect(b.stdout).toContain(`estimated cost at batch prices: $${(((i + 2 * o) / 1e6) * 0.5).toFixed(4)}`);
    expect(existsSync(store)).toBe(false);
  });

  it('--batch with a provider that has no batch API: one line, exit 2, no store', async () => {
    const store = join(dir, 'sim.sqlite');
    const r = await runCli(['run', QUICKSTART, '--store', store, '--batch']);
    expect([r.code, r.stderr.trim()]).toEqual([2, `samegame: ${liveBatchMsg.notBatchable('Sim-A', 'simulated', ['anthropic', 'gemini', 'openai-chat', 'openai-responses'])}`]);
    expect(existsSync(store)).toBe(false);
  });
});
