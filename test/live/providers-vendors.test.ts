/**
 * The anthropic and gemini providers against loopback servers speaking the Anthropic Messages and
 * Gemini generateContent wire formats: what is sent (system prompt, user turn, decoding, logprobs),
 * what is read (text, first-token alternatives, snapshot, usage), and every failure mapped to the
 * kind the runner retries on: 429 with retry-after (and Gemini's RetryInfo), 529 overloaded, 5xx,
 * 4xx, no answer, a body that is not JSON and one cut off mid-transfer. The runner then stores
 * every trial exactly once, with the key nowhere in the store.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/live/providers/anthropic.js';
import { createGeminiProvider, geminiBody } from '../../src/live/providers/gemini.js';
import { ProviderPool } from '../../src/live/providers/registry.js';
import { runTrials } from '../../src/live/runner/runner.js';
import { TrialStore } from '../../src/live/store/store.js';
import { ProviderError, type Provider, type TrialSpec } from '../../src/live/types.js';
import { startAnthropicLoopback, type AnthropicFault, type AnthropicLoopback } from '../helpers/loopback-anthropic.js';
import { startGeminiLoopback, type GeminiFault, type GeminiLoopback } from '../helpers/loopback-gemini.js';
import { keyOf, model, spec } from '../helpers/trial-specs.js';

const KEY = 'vendor-key-SENTINEL-0123456789';
const ANSWER = { text: 'DEFECT', top: [['DE', 0.6], ['CO', 0.3], ['\n', 0.05]] as [string, number][] };

interface Server { url: string; log: { body: string; key: string; path: string }[]; close(): Promise<void> }

const VENDORS = {
  anthropic: {
    start: (fault: (k: string, n: number) => AnthropicFault | GeminiFault | undefined) =>
      startAnthropicLoopback({ fault: fault as (k: string, n: number) => AnthropicFault, answer: () => ANSWER }),
    make: (url: string, timeoutMs: number) => createAnthropicProvider({ apiKey: KEY, baseURL: url, timeoutMs }),
    keyHeader: (s: AnthropicLoopback | GeminiLoopback) => (s as AnthropicLoopback).log.at(-1)!.apiKey ?? (s as AnthropicLoopback).log.at(-1)!.authorization,
    overload: { kind: 'overloaded' } as const, overloadStatus: 529, snapshot: 'claude-loop-20250101',
  },
  gemini: {
    start: (fault: (k: string, n: number) => AnthropicFault | GeminiFault | undefined) =>
      startGeminiLoopback({ fault: fault as (k: string, n: number) => GeminiFault, answer: () => ANSWER }),
    make: (url: string, timeoutMs: number) => createGeminiProvider({ apiKey: KEY, baseURL: url, timeoutMs }),
    keyHeader: (s: AnthropicLoopback | GeminiLoopback) => (s as GeminiLoopback).log.at(-1)!.apiKey,
    overload: { kind: 'unavailable' } as const, overloadStatus: 503, snapshot: 'gemini-loop-001',
  },
} as const;

for (const [kind, v] of Object.entries(VENDORS) as [keyof typeof VENDORS, (typeof VENDORS)[keyof typeof VENDORS]][]) {
  describe(`${kind} against its loopback server`, () => {
    let srv: AnthropicLoopback | GeminiLoopback;
    const faults = new Map<string, AnthropicFault | GeminiFault>();
    const scoring = kind === 'anthropic' ? 'sample' : 'logprobs';
    const s = (rep: number): TrialSpec => spec(model(kind, srv.url), rep, scoring);
    const call = (rep: number, p: Provider = v.make(srv.url, 2000)) => p.complete({ spec: s(rep), signal: new AbortController().signal });
    const failure = async (rep: number, p?: Provider): Promise<ProviderError> => {
      try { await call(rep, p); } catch (e) { return e as ProviderError; }
      throw new Error('expected a failure');
    };

    beforeAll(async () => {
      srv = await v.start((key, n) => (n === 1 ? faults.get(key) : undefined));
      const f = (rep: number, fault: AnthropicFault | GeminiFault) => faults.set(keyOf(spec(model(kind), rep)), fault);
      f(1, { kind: 'rate_limit', retryAfter: '3' });
      f(2, v.overload);
      f(3, { kind: 'client' });
      f(4, { kind: 'hang' });
      f(5, { kind: 'malformed' });
      f(6, { kind: 'truncated' });
      f(7, { kind: 'server' });
      if (kind === 'gemini') f(8, { kind: 'retry_info', delay: '1.5s' });
    });
    afterAll(() => srv.close());

    it('sends the system prompt, the user turn and the decoding; reads text, snapshot and usage', async () => {
      const r = await call(0);
      expect(r.text).toBe('DEFECT');
      expect(r.modelSnapshot).toBe(v.snapshot);
      expect(r.usage).toEqual({ inputTokens: 40, outputTokens: 2 });
      const sent = (srv as Server).log.at(-1)!;
      expect(v.keyHeader(srv)).toContain(KEY); // the key was used …
      expect(JSON.stringify(r.request)).not.toContain(KEY); // … and is neither in the request record nor the body stored
      expect(r.raw).not.toContain(KEY);
      expect(r.request).toMatchObject({ base_url: srv.url, body: JSON.parse(sent.body) });
      if (kind === 'anthropic') {
        expect(sent.path).toBe('/v1/messages');
        expect(JSON.parse(sent.body)).toEqual({ model: 'loop-model', max_tokens: 4, system: 'You are a player.', temperature: 1,
          messages: [{ role: 'user', content: s(0).prompt }] });
        expect(r.firstTokenTopLogprobs).toBeUndefined();
      } else {
        expect(sent.path).toBe('/v1beta/models/loop-model:generateContent');
        // Exactly the documented REST body geminiBody builds: the SDK adds nothing and moves nothing.
        expect(JSON.parse(sent.body)).toEqual(geminiBody(s(0)));
        expect(JSON.parse(sent.body)).toEqual({
          contents: [{ role: 'user', parts: [{ text: s(0).prompt }] }], systemInstruction: { parts: [{ text: 'You are a player.' }] },
          generationConfig: { temperature: 1, maxOutputTokens: 4, seed: 7, responseLogprobs: true, logprobs: 5 },
        });
        expect(r.firstTokenTopLogprobs?.map((t) => t.token)).toEqual(['DE', 'CO', '\n']);
        expect(Math.exp(r.firstTokenTopLogprobs![0].logprob)).toBeCloseTo(0.6, 12);
      }
    });

    it('sends a design\'s options.extraBody merged into the body, and records it', async () => {
      const extraBody = kind === 'anthropic' ? { top_k: 5, metadata: { user_id: 'u1' } }
        : { safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }], generationConfig: { thinkingConfig: { thinkingBudget: 0 } } };
      const sp = spec(model(kind, srv.url, { options: { extraBody } }), 10, scoring);
      const r = await v.make(srv.url, 2000).complete({ spec: sp, signal: new AbortController().signal });
      const sent = JSON.parse((srv as Server).log.at(-1)!.body) as Record<string, unknown>;
      expect((r.request as { body: unknown }).body).toEqual(sent);
      if (kind === 'anthropic') expect(sent).toMatchObject(extraBody);
      else expect(sent.generationConfig).toEqual({ temperature: 1, maxOutputTokens: 4, seed: 17, responseLogprobs: true, logprobs: 5, thinkingConfig: { thinkingBudget: 0 } });
      if (kind === 'gemini') expect(sent.safetySettings).toEqual(extraBody.safetySettings);
    });

    it('maps 429 with retry-after to rate_limit with the wait, and the overloaded status to server', async () => {
      const e = await failure(1);
      expect(e).toBeInstanceOf(ProviderError);
      expect([e.kind, e.status, e.retryAfterMs]).toEqual(['rate_limit', 429, 3000]);
      const o = await failure(2);
      expect([o.kind, o.status]).toEqual(['server', v.overloadStatus]);
      expect(o.message).toMatch(kind === 'anthropic' ? /Overloaded/ : /UNAVAILABLE/);
      expect((await failure(7)).kind).toBe('server');
      expect((await call(2)).text).toBe('DEFECT'); // the next attempt is answered
      if (kind === 'gemini') expect((await failure(8)).retryAfterMs).toBe(1500);
    });
    it('maps 400 to client (not retried), no answer to timeout, bad bodies to malformed, an abort to aborted', async () => {
      expect((await failure(3)).kind).toBe('client');
      expect((await failure(4, v.make(srv.url, 300))).kind).toBe('timeout');
      const m = await failure(5);
      expect(m.kind).toBe('malformed');
      expect(m.raw).toContain('not json');
      const t = await failure(6);
      expect(t.kind).toBe('malformed');
      const ctl = new AbortController();
      ctl.abort();
      await expect(v.make(srv.url, 2000).complete({ spec: s(9), signal: ctl.signal })).rejects.toMatchObject({ kind: 'aborted' });
    });
  });
}

describe('the runner through anthropic and gemini: every trial stored once, the key nowhere', () => {
  let dir: string;
  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-vendors-')); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const kind of ['anthropic', 'gemini'] as const) {
    it(`${kind}: faults on the first attempts are retried; 4xx is one failed trial`, async () => {
      const plan: Record<number, (AnthropicFault | GeminiFault)[]> = {
        1: [{ kind: 'rate_limit', retryAfter: '0' }], 2: [kind === 'anthropic' ? { kind: 'overloaded' } : { kind: 'unavailable' }, { kind: 'server' }],
        3: [{ kind: 'malformed' }], 4: [{ kind: 'truncated' }], 5: [{ kind: 'hang' }], 6: [{ kind: 'client' }],
      };
      const srv = kind === 'anthropic'
        ? await startAnthropicLoopback({ fault: (k, n) => plan[Number(k.split('|')[3])]?.[n - 1] as AnthropicFault | undefined })
        : await startGeminiLoopback({ fault: (k, n) => plan[Number(k.split('|')[3])]?.[n - 1] as GeminiFault | undefined });
      const path = join(dir, `${kind}.sqlite`);
      const store = TrialStore.open(path);
      try {
        const specs = Array.from({ length: 8 }, (_, rep) => spec(model(kind, srv.url), rep, kind === 'anthropic' ? 'sample' : 'logprobs'));
        const { run } = store.openRun({ name: kind, hash: kind, json: '{}', toolVersion: 't', started: 'now' });
        const pool = new ProviderPool({ timeoutMs: 400, env: kind === 'anthropic' ? { ANTHROPIC_API_KEY: KEY } : { GOOGLE_API_KEY: KEY } });
        const r = await runTrials({ store, runId: run.id, specs, providers: pool, concurrency: 3, backoff: { baseMs: 1, capMs: 5 } });
        expect([r.ok + r.invalid, r.error, r.dropped]).toEqual([7, 1, 0]);
        const rows = store.database.prepare('SELECT rep, status, attempts, error FROM trials ORDER BY rep').all() as { rep: number; status: string; attempts: number; error: string | null }[];
        expect(rows.map((x) => x.rep)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
        expect(rows.map((x) => x.attempts)).toEqual([1, 2, 3, 2, 2, 2, 1, 1]);
        expect(rows[6]).toMatchObject({ status: 'error' });
        expect(rows[6].error).toMatch(/^client 400/);
        expect(srv.requests.get(keyOf(specs[6]))).toBe(1);
      } finally {
        store.close();
        await srv.close();
      }
      expect(readFileSync(path).toString('latin1')).not.toContain(KEY.slice(0, 16));
    });
  }
});
