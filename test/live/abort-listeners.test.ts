/**
 * --concurrency 11 or more used to print "MaxListenersExceededWarning: Possible EventTarget memory
 * leak detected. 11 abort listeners added to [AbortSignal]": every call in flight and every wait
 * added its own listener to the run's shared abort signal. Now each shared signal carries one
 * listener that fans out (src/live/abort.ts), and a waiter unregisters when it settles.
 */
import { getEventListeners } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onAbort } from '../../src/live/abort.js';
import { realClock } from '../../src/live/runner/clock.js';
import { rawCall } from '../../src/live/providers/wire.js';
import { startLoopback } from '../helpers/loopback-openai.js';
import { cleanEnv, startCli } from '../helpers/cli.js';

/**
 * The quickstart's settings (logprob scoring) at the size the check needs: 96 trials, so that 32
 * calls are in flight at once (the warning came at 11) and more wait behind them.
 */
const DESIGN = `name: listeners
models:
  - { id: Sim-A, provider: simulated }
games: [prisoners-dilemma, snowdrift, stag-hunt]
framings: [business, friend-sharing]
trials: 16
decoding: { temperature: 0.8, max_tokens: 8, seed: 1, top_logprobs: 20 }
scoring: logprobs
`;
const TOTAL = 3 * 2 * 16; // by hand

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-listeners-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one abort listener per shared signal', () => {
  it('50 sleeps on one signal add one listener; an abort wakes them all', async () => {
    const ctl = new AbortController();
    const sleeps = Array.from({ length: 50 }, () => realClock.sleep(3_600_000, ctl.signal));
    expect(getEventListeners(ctl.signal, 'abort')).toHaveLength(1);
    ctl.abort();
    await Promise.all(sleeps);
  });

  it('32 calls in flight on one signal add one listener; settled calls unregister', async () => {
    const outer = new AbortController();
    const answers: ((r: Response) => void)[] = [];
    const calls = Array.from({ length: 32 }, () => rawCall(() => new Promise<Response>((r) => answers.push(r)), outer.signal, { apiKey: 'k', timeoutMs: 60_000 }));
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(1);
    for (const a of answers) a(new Response('{"ok": true}'));
    expect((await Promise.all(calls)).every((c) => c.raw === '{"ok": true}')).toBe(true);
    // Nothing left registered: an abort now calls no settled call's callback.
    let called = 0;
    const off = onAbort(outer.signal, () => { called++; });
    off();
    outer.abort();
    expect(called).toBe(0);
  });

  it('a signal already aborted calls back at once', () => {
    let n = 0;
    onAbort(AbortSignal.abort(), () => { n++; });
    expect(n).toBe(1);
  });
});

it('run --concurrency 32 against a loopback server: no MaxListenersExceededWarning', async () => {
  let open!: () => void;
  const gate = new Promise<void>((r) => { open = r; });
  const srv = await startLoopback({ hold: () => gate });
  try {
    const store = join(dir, 'c32.sqlite');
    const design = join(dir, 'listeners.yaml');
    writeFileSync(design, DESIGN);
    const run = startCli(['run', design, '--store', store, '--provider', 'openai-chat', '--base-url', srv.url, '--model', 'loop',
      '--concurrency', '32'], { env: cleanEnv() });
    await srv.waitFor('request', 32); // 32 calls in flight at once, all held
    open();
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(srv.requests.size).toBe(TOTAL);
    expect(r.stderr).not.toContain('MaxListenersExceededWarning');
    expect(r.stderr).not.toContain('memory leak');
  } finally {
    open();
    await srv.close();
  }
}, 300_000);
