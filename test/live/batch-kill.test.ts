/**
 * Crash safety of batch runs: the CLI SIGKILLs itself (SAMEGAME_CRASH_AT) right after each chunk
 * transition is committed — prepared, uploaded, created, collected — and once between the batch
 * create call and its commit. Run again, it finishes with exactly one batch per chunk on the
 * server, no trial stored twice, and no answered trial requested again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startBatchLoopback } from '../helpers/loopback-batch.js';
import { cleanEnv, runCli, spawnCli } from '../helpers/cli.js';
import { batchArgs, QUICKSTART_TRIALS, requestedAgain, storeFacts } from '../helpers/batch-run.js';
import { liveBatchMsg } from '../../src/live/batch/messages.js';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-batch-kill-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const POINTS = ['prepared', 'uploaded', 'create-call', 'created', 'collected'] as const;

it.each(POINTS)('kill -9 at %s, then resume: one batch per chunk, every trial stored once, none requested again', async (point) => {
  const srv = await startBatchLoopback();
  try {
    const store = join(dir, `${point}.sqlite`);
    // 200 lines per file: 4 chunks for the quickstart's 800 trials.
    const args = batchArgs(store, srv.url, ['--batch-size', '200']);
    const first = await spawnCli(args, { env: cleanEnv({ OPENAI_API_KEY: 'sk-test', SAMEGAME_CRASH_AT: point }) });
    expect(first.signal).toBe('SIGKILL');
    const before = storeFacts(store);
    if (point === 'create-call') expect(srv.createdPerChunk.size).toBe(before.chunks.filter((c) => c.state === 'created').length + 1);

    const second = await runCli(args, { env: cleanEnv({ OPENAI_API_KEY: 'sk-test' }) });
    expect(second.code).toBe(0);
    if (point === 'create-call') expect(second.stderr).toContain(liveBatchMsg.chunkCreated(1, 'batch_1', true));
    const after = storeFacts(store);
    expect([after.rows, after.distinct, after.complete]).toEqual([QUICKSTART_TRIALS, QUICKSTART_TRIALS, QUICKSTART_TRIALS]);
    expect(after.chunks.map((c) => c.state)).toEqual(['collected', 'collected', 'collected', 'collected']);
    // Exactly one batch per chunk, for every chunk the store knows.
    expect(srv.createdPerChunk.size).toBe(after.chunks.length);
    expect([...srv.createdPerChunk.values()]).toEqual(after.chunks.map(() => 1));
    expect(requestedAgain(srv.outcomes)).toEqual([]);
    expect([...srv.outcomes.values()].every((o) => o.length === 1)).toBe(true);
  } finally {
    await srv.close();
  }
}, 120_000);
