/**
 * One response check for every provider, and one wait ceiling for every retry hint, against
 * loopback servers of each wire format (Gemini generateContent, Anthropic Messages, OpenAI chat)
 * and plug-ins: first-token candidates a reader used to leave out make the trial invalid with the
 * reason; impossible log-probabilities likewise; a body above 4 MiB is a failed attempt, never
 * stored; a retry hint above the ceiling (60 s by default) is ignored with a warning and the
 * ordinary backoff applies; a plug-in that breaks the contract (raw not a string, usage not a
 * count) stops the run at once, one line naming it and the field, the trials stored kept.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../src/core/logger.js';
import { UserError } from '../../src/core/errors.js';
import { ProviderPool } from '../../src/live/providers/registry.js';
import { FakeClock } from '../../src/live/runner/clock.js';
import { runTrials, type CallOptions } from '../../src/live/runner/runner.js';
import { TrialStore } from '../../src/live/store/store.js';
import type { Provider, TrialSpec } from '../../src/live/types.js';
import { startRawLoopback, type RawAnswer } from '../helpers/loopback-raw.js';
import { model, spec } from '../helpers/trial-specs.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = 'contract-key-0123456789';
const ENV = { GOOGLE_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY };
let seq = 0;

interface Row { rep: number; status: string; p_cooperate: number | null; error: string | null; attempts: number; response: string | null }

/** Run the specs against a provider source; the rows stored, the summary (or the error that ended the run), the waits and warnings. */
async function run(specs: TrialSpec[], providers: CallOptions['providers'], over: Partial<CallOptions> = {}) {
  const path = join(dir, `s${++seq}.sqlite`);
  const store = TrialStore.open(path);
  const clock = new FakeClock();
  const logger = new MemoryLogger();
  try {
    const { run: r } = store.openRun({ name: 'c', hash: `c${seq}`, json: '{}', toolVersion: 't', started: 'now' });
    let error: unknown;
    const t0 = performance.now();
    await runTrials({ store, runId: r.id, specs, providers, concurrency: 1, maxRetries: 2, clock, logger, backoff: { baseMs: 100, capMs: 1000 }, ...over })
      .catch((e: unknown) => { error = e; });
    const rows = store.database.prepare('SELECT rep, status, p_cooperate, error, attempts, response FROM trials ORDER BY rep').all() as Row[];
    return { rows, error, sleeps: clock.sleeps, warnings: logger.warnings, ms: performance.now() - t0, path };
  } finally {
    store.close();
  }
}

const pool = () => new ProviderPool({ timeoutMs: 5000, env: ENV });

/** A Gemini generateContent answer whose first position holds these candidates (as written on the wire). */
const geminiBody = (cands: unknown[]) => JSON.stringify({
  candidates: [{ content: { parts: [{ text: 'COOP' }], role: 'model' }, finishReason: 'STOP', logprobsResult: { topCandidates: [{ candidates: cands }], chosenCandidates: cands.slice(0, 1) } }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 1 }, modelVersion: 'gemini-loop',
});
const ANTHROPIC_OK = JSON.stringify({ id: 'm', type: 'message', role: 'assistant', model: 'claude-loop', content: [{ type: 'text', text: 'COOP' }], usage: { input_tokens: 3, output_tokens: 1 } });
const CHAT_OK = JSON.stringify({ id: 'c', object: 'chat.completion', model: 'gpt-loop', choices: [{ index: 0, message: { role: 'assistant', content: 'COOP' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1 } });

describe('Gemini first-token candidates: every one judged, none left out', () => {
  // A clean answer: C 0.6, D 0.18 → P(C) = 0.6/0.78 = 0.769.
  const clean = [{ token: 'COOP', logProbability: Math.log(0.6) }, { token: 'DEFECT', logProbability: Math.log(0.18) }];
  const cases: [string, string, RegExp][] = [
    ['a logProbability that is text', '{"token":"DE","logProbability":"-0.1"}', /candidate 3 \("DE"\) has a log-probability that is not a number/],
    ['a null logProbability', '{"token":"DE","logProbability":null}', /candidate 3 \("DE"\) has a log-probability that is not a number/],
    ['1e999 (+∞)', '{"token":"X","logProbability":1e999}', /candidate 3 \("X"\) has a log-probability that is not a number or not finite \(Infinity\)/],
    ['a positive logProbability', '{"token":"CO","logProbability":0.5}', /candidate 3 \("CO"\) has a positive log-probability \(0\.5\)/],
    ['no token', '{"logProbability":-0.2}', /candidate 3 has no text/],
  ];
  it('the clean answer is ok with P(C) = 0.6/0.78; each bad candidate makes the trial invalid with its reason', async () => {
    const srv = await startRawLoopback((key) => {
      const rep = Number(key.split('|')[3]);
      if (rep === 0) return { body: geminiBody(clean) };
      const bad = cases[rep - 1][1];
      return { body: geminiBody(clean).replace(/("candidates":\[)(\{"token":"COOP"[^\]]*)\]/, `$1$2,${bad}]`) };
    });
    try {
      const specs = Array.from({ length: cases.length + 1 }, (_, rep) => spec(model('gemini', srv.url), rep, 'logprobs'));
      const r = await run(specs, pool());
      expect(r.rows[0]).toMatchObject({ status: 'ok' });
      expect(r.rows[0].p_cooperate!).toBeCloseTo(0.6 / 0.78, 12);
      cases.forEach(([what, , reason], i) => {
        expect(r.rows[i + 1].status, what).toBe('invalid');
        expect(r.rows[i + 1].p_cooperate, what).toBeNull();
        expect(r.rows[i + 1].error, what).toMatch(reason);
      });
    } finally { await srv.close(); }
  });
});

describe('impossible log-probabilities from a plug-in', () => {
  it('logprob 1000 for both labels: invalid at run time with the reason, never ok without a probability', async () => {
    const p: Provider = { id: 'lp', complete: async () => ({ text: 'COOP', raw: '{}', request: {}, firstTokenTopLogprobs: [{ token: 'COOP', logprob: 1000 }, { token: 'DEFECT', logprob: 1000 }] }) };
    const r = await run([spec(model('./lp.mjs'), 0, 'logprobs')], { get: () => p });
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]).toMatchObject({ status: 'invalid', p_cooperate: null });
    expect(r.rows[0].error).toMatch(/positive log-probability \(1000\)/);
  });
});

describe('a response body above 4 MiB is a failed attempt, never stored', () => {
  const big = 100 * 2 ** 20;
  for (const [vendor, ok, scoring] of [['anthropic', ANTHROPIC_OK, 'sample'], ['gemini', geminiBody([{ token: 'COOP', logProbability: -0.1 }, { token: 'DEFECT', logProbability: -3 }]), 'logprobs'], ['openai-chat', CHAT_OK, 'sample']] as const) {
    it(`${vendor}: a valid 100 MB answer is refused on every attempt; the store stays small`, async () => {
      const srv = await startRawLoopback((key) => (key.endsWith('|0') ? { bytes: big, field: 'pad' } as RawAnswer : { body: ok }));
      try {
        const specs = [spec(model(vendor, srv.url), 0, scoring), spec(model(vendor, srv.url), 1, scoring)];
        const r = await run(specs, pool());
        expect(r.rows.map((x) => [x.rep, x.status, x.attempts])).toEqual([[0, 'error', 3], [1, 'ok', 1]]);
        expect(r.rows[0].error).toMatch(/^malformed: the response body is larger than 4 MiB/);
        expect(r.rows[0].response).toBeNull();
        expect(statSync(r.path).size).toBeLessThan(2 ** 20);
      } finally { await srv.close(); }
    }, 30_000);
  }
  it('a plug-in\'s raw above 4 MiB is a failed attempt too', async () => {
    const raw = 'x'.repeat(5 * 2 ** 20);
    const p: Provider = { id: 'big', complete: async () => ({ text: 'COOP', raw, request: {} }) };
    const r = await run([spec(model('./big.mjs'), 0, 'sample')], { get: () => p });
    expect(r.rows[0]).toMatchObject({ status: 'error', attempts: 3, response: null });
  });
});

describe('one wait ceiling for every retry hint', () => {
  const hints: [string, string, (n: number) => RawAnswer][] = [
    ['anthropic', 'retry-after: 1000000000000', (n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1000000000000' }, body: JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow' } }) } : { body: ANTHROPIC_OK })],
    ['anthropic', 'an HTTP-date in 2099', (n) => (n === 1 ? { status: 429, headers: { 'retry-after': 'Wed, 01 Jan 2099 00:00:00 GMT' }, body: JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow' } }) } : { body: ANTHROPIC_OK })],
    ['gemini', 'retryDelay 100000000000s', (n) => (n === 1 ? { status: 429, body: JSON.stringify({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'slow', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '100000000000s' }] } }) } : { body: geminiBody([{ token: 'COOP', logProbability: -0.1 }, { token: 'DEFECT', logProbability: -3 }]) })],
    ['openai-chat', 'retry-after-ms: 1e15', (n) => (n === 1 ? { status: 429, headers: { 'retry-after-ms': '1000000000000000' }, body: JSON.stringify({ error: { message: 'slow', type: 'rate_limit' } }) } : { body: CHAT_OK })],
  ];
  for (const [vendor, what, answer] of hints) {
    it(`${vendor}, ${what}: the wait stays on the ordinary backoff (≤ 1 s here), with a warning naming the hint`, async () => {
      const srv = await startRawLoopback((_k, n) => answer(n));
      try {
        const r = await run([spec(model(vendor, srv.url), 0, vendor === 'gemini' ? 'logprobs' : 'sample')], pool());
        expect(r.rows[0]).toMatchObject({ status: 'ok', attempts: 2 });
        expect(r.sleeps).toHaveLength(1);
        expect(r.sleeps[0]).toBeLessThanOrEqual(1000);
        expect(r.warnings).toHaveLength(1);
        expect(r.warnings[0]).toMatch(/^a retry hint \(Retry-After, retryDelay or a plug-in's retryAfterMs\) asked to wait .+ s before retrying, above the ceiling of 60 s \(--max-wait\): the hint is ignored/);
      } finally { await srv.close(); }
    });
  }
  it('a hint within the ceiling is honoured; the ceiling is configurable (maxWaitMs)', async () => {
    const srv = await startRawLoopback((_k, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '30' }, body: '{}' } : { body: ANTHROPIC_OK }));
    try {
      const honoured = await run([spec(model('anthropic', srv.url), 0, 'sample')], pool());
      expect(honoured.sleeps).toEqual([30_000]);
      const capped = await run([spec(model('anthropic', srv.url), 1, 'sample')], pool(), { maxWaitMs: 10_000 });
      expect(capped.sleeps[0]).toBeLessThanOrEqual(1000);
      expect(capped.warnings[0]).toMatch(/above the ceiling of 10 s/);
    } finally { await srv.close(); }
  });
});

describe('a plug-in that breaks the contract stops the run at the first break', () => {
  const breaking = (bad: Record<string, unknown>, from: number): Provider => ({
    id: 'bad', complete: async ({ spec: s }) => ({ text: 'COOP', raw: '{}', request: {}, ...(s.rep >= from ? bad : {}) }),
  });
  for (const [what, bad, field] of [
    ['raw not a string', { raw: { by: 'x' } }, /"raw" is object, not a string/],
    ['usage "many"', { usage: { inputTokens: 'many', outputTokens: 1 } }, /"usage" is not \{ inputTokens, outputTokens \}/],
    ['usage −5', { usage: { inputTokens: 1, outputTokens: -5 } }, /"usage" is not \{ inputTokens, outputTokens \}/],
  ] as const) {
    it(`${what}: one line naming the plug-in, the model and the field; no retry, no backoff; the 3 trials stored before are kept`, async () => {
      const specs = Array.from({ length: 32 }, (_, rep) => spec(model('./bad-plugin.mjs'), rep, 'sample'));
      const r = await run(specs, { get: () => breaking(bad, 3) }, { maxRetries: 5 });
      expect(r.error).toBeInstanceOf(UserError);
      const m = (r.error as Error).message;
      expect(m.split('\n')).toHaveLength(1);
      expect(m).toMatch(/^plug-in \.\/bad-plugin\.mjs \(model m1\) broke the provider contract: /);
      expect(m).toMatch(field);
      expect(r.sleeps).toEqual([]);
      expect(r.rows.map((x) => [x.rep, x.status])).toEqual([[0, 'ok'], [1, 'ok'], [2, 'ok']]);
      expect(r.ms).toBeLessThan(5000);
    });
  }
});
