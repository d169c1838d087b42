import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from '../../src/live/runner/backoff.js';
import { FakeClock } from '../../src/live/runner/clock.js';
import { AdaptiveLimit } from '../../src/live/runner/concurrency.js';
import { TokenBucket } from '../../src/live/runner/rate-limit.js';
import { ProviderPool } from '../../src/live/providers/registry.js';
import { runTrials } from '../../src/live/runner/runner.js';
import { TrialStore } from '../../src/live/store/store.js';
import { ProviderError, type Provider, type ProviderResponse, type TrialRecord, type TrialSpec } from '../../src/live/types.js';
import { MemoryLogger } from '../../src/core/logger.js';
import { streamFor } from '../../src/stats/rng.js';
import { startLoopback, type Fault } from '../helpers/loopback-openai.js';
import { keyOf, model, spec } from '../helpers/trial-specs.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
function openStore(): TrialStore {
  const d = mkdtempSync(join(tmpdir(), 'sg-runner-'));
  dirs.push(d);
  const s = TrialStore.open(join(d, 's.sqlite'));
  s.openRun({ name: 'd', hash: 'h', json: '{}', toolVersion: '0', started: 'x' });
  return s;
}
const byRep = (s: TrialStore) => new Map([...s.trials(1)].map((t) => [t.rep, t] as [number, TrialRecord]));

describe('backoff', () => {
  it('draws full jitter below min(cap, base·2^(n−1)) and never waits less than Retry-After', () => {
    const rng = streamFor(1, 'k');
    for (let n = 1; n <= 10; n++) {
      const d = backoffDelay(n, rng);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(Math.min(DEFAULT_BACKOFF.capMs, 500 * 2 ** (n - 1)));
    }
    expect(backoffDelay(1, streamFor(1, 'k'), DEFAULT_BACKOFF, 2000)).toBe(2000); // ceiling 500 < 2000
  });
});

for (const kind of ['openai-responses', 'openai-chat'] as const) {
  it(`${kind}: a run through every fault completes and records every failure`, async () => {
    // rep → the faults of its successive requests (then answered normally).
    const script: Record<number, Fault[]> = {
      0: [],
      1: [{ kind: 'rate_limit', retryAfter: '2' }],
      2: [{ kind: 'server' }, { kind: 'server' }],
      3: [{ kind: 'hang' }],
      4: [{ kind: 'malformed' }],
      5: [{ kind: 'truncated' }],
      6: [{ kind: 'client' }],
      7: Array.from({ length: 10 }, () => ({ kind: 'server' as const })),
      8: [{ kind: 'rate_limit', retryAfter: new Date(Date.now() + 120_000).toUTCString() }],
    };
    const srv = await startLoopback({ fault: (key, n) => script[Number(key.split('|').pop())]?.[n - 1] });
    try {
      const m = model(kind, srv.url);
      const specs = Object.keys(script).map((r) => spec(m, Number(r)));
      const store = openStore();
      const clock = new FakeClock();
      const logger = new MemoryLogger();
      const r = await runTrials({
        store, runId: 1, specs, // The hang (rep 3) costs one real timeout; 2 s keeps normal loopback answers far inside it under CI load.
        providers: new ProviderPool({ env: { OPENAI_API_KEY: 'sk-x' }, timeoutMs: 2000 }),
        concurrency: 3, maxRetries: 3, clock, logger,
        maxWaitMs: 180_000, // the 120 s HTTP-date of rep 8 is within this ceiling (the default, 60 s, would ignore it)
      });
      expect(r.outcome).toBe('complete');
      const t = byRep(store);
      expect(t.size).toBe(9);
      // Hand count: reps 0–5 and 8 end ok; 6 is a client error (not retried); 7 fails 1 + 3 retries.
      for (const rep of [0, 1, 2, 3, 4, 5, 8]) expect(t.get(rep)!.status, `rep ${rep}`).toBe('ok');
      expect([t.get(6)!.status, t.get(6)!.attempts, t.get(6)!.error]).toEqual(['error', 1, 'client 400: 400 Invalid parameter (after 1 attempt)']);
      expect([t.get(7)!.status, t.get(7)!.attempts]).toEqual(['error', 4]);
      expect(t.get(7)!.error).toMatch(/^server 500: .* \(after 4 attempts\)$/);
      expect([1, 2, 3, 4, 5].map((rep) => t.get(rep)!.attempts)).toEqual([2, 3, 2, 2, 2]);
      // Every attempt reached the server once: requests per key = attempts.
      for (const s of specs) expect(srv.requests.get(keyOf(s)), keyOf(s)).toBe(t.get(s.rep)!.attempts);
      // Retry-After honoured: a wait of ≥ 2 s (seconds form) and ≥ 100 s (HTTP-date 120 s ahead, whole seconds) was taken.
      expect(clock.sleeps.some((ms) => ms >= 2000 && ms < 2500)).toBe(true);
      expect(clock.sleeps.some((ms) => ms >= 100_000 && ms <= 120_000)).toBe(true);
      // Scored: the loopback answers P(C) = 0.7 on the first token; even reps say COOP.
      expect(t.get(0)!.pCooperate).toBeCloseTo(0.7, 12);
      expect([t.get(0)!.action, t.get(1)!.action]).toEqual(['C', 'D']);
      expect(t.get(0)!.modelSnapshot).toBe('loop-model-2025-01-01');
      expect(logger.warnings.at(-1)).toContain('2 trials failed');
      store.close();
    } finally {
      await srv.close();
    }
  });
}

/** A provider the test drives by hand: each call waits for the test to release it. */
function manualProvider(): Provider & { pending: (() => void)[]; calls: number } {
  const pending: (() => void)[] = [];
  const p = {
    id: 'manual', pending, calls: 0,
    complete(req: { spec: TrialSpec; signal: AbortSignal }): Promise<ProviderResponse> {
      p.calls++;
      return new Promise((resolve, reject) => {
        req.signal.addEventListener('abort', () => reject(new ProviderError('aborted', 'aborted')), { once: true });
        pending.push(() => resolve({ text: 'COOP', raw: '{}', request: {}, firstTokenTopLogprobs: [{ token: 'CO', logprob: 0 }] }));
      });
    },
  };
  return p;
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('runner stop and abort', () => {
  it('a stop finishes and stores the calls in flight, dispatches nothing more; a rerun does the rest', async () => {
    const store = openStore();
    const specs = Array.from({ length: 10 }, (_, i) => spec(model('manual'), i));
    const prov = manualProvider();
    const stop = new AbortController();
    const run = runTrials({ store, runId: 1, specs, providers: { get: () => prov }, concurrency: 3, clock: new FakeClock(), stop: stop.signal });
    await tick();
    expect(prov.pending).toHaveLength(3);
    stop.abort();
    for (const f of prov.pending.splice(0)) f();
    const r = await run;
    expect([r.outcome, r.ok, prov.calls]).toEqual(['interrupted', 3, 3]);
    expect(store.statusCounts(1).ok).toBe(3);
    const prov2 = { id: 'auto', calls: 0, async complete(): Promise<ProviderResponse> { prov2.calls++; return { text: 'COOP', raw: '{}', request: {}, firstTokenTopLogprobs: [{ token: 'CO', logprob: 0 }] }; } };
    const r2 = await runTrials({ store, runId: 1, specs, providers: { get: () => prov2 }, clock: new FakeClock() });
    expect([r2.outcome, r2.alreadyDone, prov2.calls]).toEqual(['complete', 3, 7]);
    expect(store.statusCounts(1).ok).toBe(10);
    store.close();
  });

  it('an abort drops the calls in flight without storing them', async () => {
    const store = openStore();
    const specs = Array.from({ length: 5 }, (_, i) => spec(model('manual'), i));
    const prov = manualProvider();
    const stop = new AbortController(), abort = new AbortController();
    const run = runTrials({ store, runId: 1, specs, providers: { get: () => prov }, concurrency: 2, clock: new FakeClock(), stop: stop.signal, abort: abort.signal });
    await tick();
    prov.pending[0]();
    await tick();
    stop.abort();
    abort.abort();
    const r = await run;
    expect([r.outcome, r.ok, r.dropped]).toEqual(['aborted', 1, 2]);
    expect(store.statusCounts(1)).toEqual({ ok: 1, invalid: 0, error: 0 });
    store.close();
  });
});

describe('runner limits', () => {
  const instant = (calls: number[], clock: FakeClock, fail?: (n: number) => ProviderError | undefined): Provider => ({
    id: 'instant',
    async complete() {
      calls.push(clock.now());
      const e = fail?.(calls.length);
      if (e) throw e;
      return { text: 'COOP', raw: '{}', request: {}, usage: { inputTokens: 10, outputTokens: 2 }, firstTokenTopLogprobs: [{ token: 'CO', logprob: 0 }] };
    },
  });

  it('spaces calls at 60 requests per minute one second apart (bucket of one second)', async () => {
    const store = openStore();
    const clock = new FakeClock();
    const calls: number[] = [];
    await runTrials({ store, runId: 1, specs: Array.from({ length: 5 }, (_, i) => spec(model('x'), i)), providers: { get: () => instant(calls, clock) }, concurrency: 1, rpm: 60, clock });
    expect(calls).toEqual([0, 1000, 2000, 3000, 4000]);
    store.close();
  });

  it('holds a tokens-per-minute limit at the tokens actually used (settled after each call)', async () => {
    // Hand: tpm 1200 → 0.02 tokens/ms, bucket of one second = 20 tokens. Each call is estimated
    // above 20 tokens (prompt/4 + overhead + max tokens), so it waits for a full bucket, and is then
    // settled to its usage, 10 + 2 = 12 tokens: the next call waits for 12 tokens = 600 ms.
    const store = openStore();
    const clock = new FakeClock();
    const calls: number[] = [];
    await runTrials({ store, runId: 1, specs: Array.from({ length: 5 }, (_, i) => spec(model('x'), i)), providers: { get: () => instant(calls, clock) }, concurrency: 1, tpm: 1200, clock });
    expect(calls).toEqual([0, 600, 1200, 1800, 2400]);
    store.close();
  });

  it('halves concurrency while 429s repeat and says so', async () => {
    const store = openStore();
    const clock = new FakeClock();
    const logger = new MemoryLogger();
    const calls: number[] = [];
    const p = instant(calls, clock, (n) => (n <= 2 ? new ProviderError('rate_limit', '429', 429, 100) : undefined));
    const r = await runTrials({ store, runId: 1, specs: Array.from({ length: 8 }, (_, i) => spec(model('x'), i)), providers: { get: () => p }, concurrency: 8, clock, logger });
    expect(r.ok).toBe(8);
    expect(logger.warnings).toContain('rate limited repeatedly: concurrency lowered from 8 to 4');
    store.close();
  });
});

describe('token bucket and adaptive limit', () => {
  it('lets a cost above the capacity through when full, then makes the next wait for the debt', async () => {
    const clock = new FakeClock();
    const b = new TokenBucket(600, clock); // 10 per second: capacity 10, 0.01 per ms
    expect(b.capacity).toBe(10);
    await b.take(25); // full bucket: through at once, level 10 − 25 = −15
    expect(clock.sleeps).toEqual([]);
    await b.take(5); // needs (5 − (−15)) / 0.01 = 2000 ms
    expect(clock.sleeps).toEqual([2000]);
    b.settle(-10); // the call used 10 fewer than estimated: level 0 + 10 = 10
    await b.take(10);
    expect(clock.sleeps).toEqual([2000]);
  });

  it('halves on a 429 once per window of completed calls and climbs back additively', () => {
    const lowered: [number, number][] = [];
    const l = new AdaptiveLimit(4, (a, b) => lowered.push([a, b]));
    l.rateLimited();
    l.rateLimited(); // same burst: no second halving
    expect(l.limit).toBe(2);
    for (let i = 0; i < 2; i++) { void l.acquire(); l.release(); }
    l.rateLimited();
    expect(lowered).toEqual([[4, 2], [2, 1]]);
    l.success(); // 1 success at limit 1 → 2
    l.success();
    l.success(); // 2 more at limit 2 → 3
    expect(l.limit).toBe(3);
  });
});
