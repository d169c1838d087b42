/**
 * Crash safety of Anthropic and Gemini batch runs: the CLI SIGKILLs itself (SAMEGAME_CRASH_AT)
 * right after a chunk is committed as uploaded (for these vendors: "a create call may follow"),
 * between the create call and its commit, and right after a chunk is collected. Run
 * again, it finishes with exactly one batch per chunk on the server (re-attached: Gemini by
 * displayName, Anthropic by creation time and size), no trial stored twice, none requested again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAnthropicLoopback, type AnthropicLoopback } from '../helpers/loopback-anthropic.js';
import { startGeminiLoopback, type GeminiLoopback } from '../helpers/loopback-gemini.js';
import { cleanEnv, runCli, spawnCli } from '../helpers/cli.js';
import { requestedAgain, storeFacts } from '../helpers/batch-run.js';
import { anthropicKeys, runArgs, SMALL_TRIALS, writeSmall } from '../helpers/vendor-run.js';
import { liveBatchMsg } from '../../src/live/batch/messages.js';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-vendors-kill-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The points where these vendors differ from OpenAI's path (batch-kill.test.ts kills that one at
// all five): a kill after the create call is re-attached by the vendor's own listing (both
// vendors); after `uploaded`, which makes no call here, the resumed run must look for a batch
// before creating one (Anthropic, by creation time); after `collected` it reads no result twice
// (Gemini). The other steps do not depend on the vendor.
const CASES = [['anthropic', 'create-call'], ['gemini', 'create-call'], ['anthropic', 'uploaded'], ['gemini', 'collected']] as const;

it.each(CASES)('%s: kill -9 at %s, then resume: one batch per chunk, every trial stored once, none requested again', async (vendor, point) => {
  const keys = anthropicKeys('sample');
  const srv: AnthropicLoopback | GeminiLoopback = vendor === 'anthropic'
    ? await startAnthropicLoopback({ keyOf: (id) => keys.get(id) ?? id }) : await startGeminiLoopback({ pageSize: 3 });
  const batchesOnServer = () => (vendor === 'anthropic' ? (srv as AnthropicLoopback).batches.size : (srv as GeminiLoopback).ops.size);
  try {
    const store = join(dir, `${vendor}-${point}.sqlite`);
    const key: Record<string, string> = vendor === 'anthropic' ? { ANTHROPIC_API_KEY: 'k-test' } : { GEMINI_API_KEY: 'k-test' };
    // 20 lines per file: 4 chunks for the design's 80 trials.
    const args = runArgs(writeSmall(dir, 'sample'), store, vendor, srv.url, ['--batch', '--poll', '0.01', '--batch-size', '20']);
    const first = await spawnCli(args, { env: cleanEnv({ ...key, SAMEGAME_CRASH_AT: point }) });
    expect(first.signal).toBe('SIGKILL');
    const before = storeFacts(store);
    if (point === 'create-call') expect(batchesOnServer()).toBe(before.chunks.filter((c) => c.state === 'created').length + 1);

    const second = await runCli(args, { env: cleanEnv(key) });
    expect(second.code).toBe(0);
    if (point === 'create-call') {
      const id = vendor === 'anthropic' ? 'msgbatch_0001' : 'batches/loop1';
      expect(second.stderr).toContain(liveBatchMsg.chunkCreated(1, id, true));
    }
    const after = storeFacts(store);
    expect([after.rows, after.distinct, after.complete]).toEqual([SMALL_TRIALS, SMALL_TRIALS, SMALL_TRIALS]);
    expect(after.chunks.map((c) => c.state)).toEqual(['collected', 'collected', 'collected', 'collected']);
    expect(batchesOnServer()).toBe(after.chunks.length);
    expect(requestedAgain(srv.outcomes)).toEqual([]);
    expect([...srv.outcomes.values()].every((o) => o.length === 1)).toBe(true);
  } finally {
    await srv.close();
  }
}, 60_000);
