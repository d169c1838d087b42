/**
 * Ctrl-C while `run --batch` waits between polls: the process ends with 130 and the interrupted
 * message (not 0 with a summary), the submitted batch stays open in the store, and a second run
 * picks it up and finishes with every trial stored once.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startBatchLoopback } from '../helpers/loopback-batch.js';
import { batchArgs, QUICKSTART_TRIALS, storeFacts } from '../helpers/batch-run.js';

const BIN = fileURLToPath(new URL('../../bin/samegame.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const env = () => { const e = { ...process.env, OPENAI_API_KEY: 'sk-test' }; return e; };

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-batch-int-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Run the CLI; `onErr` sees stderr as it grows and may signal the child. */
function run(args: string[], onErr?: (text: string, kill: (s: NodeJS.Signals) => void) => void) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stdout!.resume();
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString('utf8'); onErr?.(stderr, (s) => child.kill(s)); });
  return new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

it('SIGINT during the wait between polls: exit 130, batch kept open, a rerun completes it', async () => {
  const srv = await startBatchLoopback();
  try {
    const store = join(dir, 's.sqlite');
    // A long poll interval: after the batch is created the run sleeps; the signal comes on that event.
    let sent = false;
    const first = await run([...batchArgs(store, srv.url).filter((a, i, all) => a !== '--poll' && all[i - 1] !== '--poll'), '--poll', '600'], (text, kill) => {
      if (!sent && /created/.test(text)) { sent = true; kill('SIGINT'); }
    });
    expect(first.code).toBe(130);
    expect(first.stderr).toMatch(/interrupted: .* Run the same command again to resume\./);
    const open = storeFacts(store);
    expect(open.chunks.length).toBeGreaterThan(0);
    expect(open.chunks.every((c) => c.state !== 'collected')).toBe(true);

    const second = await run(batchArgs(store, srv.url));
    expect(second.code).toBe(0);
    const done = storeFacts(store);
    expect([done.rows, done.distinct, done.complete]).toEqual([QUICKSTART_TRIALS, QUICKSTART_TRIALS, QUICKSTART_TRIALS]);
    expect(srv.createdPerChunk.size).toBe(done.chunks.length); // the open batch was polled again, not sent twice
  } finally {
    await srv.close();
  }
}, 120_000);
