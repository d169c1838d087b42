import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIChatProvider } from '../../src/live/providers/openai-chat.js';
import { createOpenAIResponsesProvider, responsesBody } from '../../src/live/providers/openai-responses.js';
import { parseRetryAfter } from '../../src/live/providers/errors.js';
import { ProviderPool } from '../../src/live/providers/registry.js';
import { ProviderError, type Provider } from '../../src/live/types.js';
import { UserError } from '../../src/core/errors.js';
import { startLoopback, type Fault, type Loopback } from '../helpers/loopback-openai.js';
import { keyOf, model, spec } from '../helpers/trial-specs.js';
import { providersMsg } from '../../src/live/providers/messages.js';

const KEY = 'sk-test-SENTINEL-0123456789';
const hdr = (h: Record<string, string>) => ({ get: (n: string) => h[n] ?? null });

describe('parseRetryAfter', () => {
  it('reads delay-seconds, HTTP-dates and retry-after-ms (RFC 9110 §10.2.3)', () => {
    expect(parseRetryAfter(hdr({ 'retry-after': '2' }), 0)).toBe(2000);
    expect(parseRetryAfter(hdr({ 'retry-after': '0.5' }), 0)).toBe(500);
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter(hdr({ 'retry-after': 'Wed, 21 Oct 2015 07:28:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfter(hdr({ 'retry-after': 'Wed, 21 Oct 2015 07:27:00 GMT' }), now)).toBe(0); // in the past
    expect(parseRetryAfter(hdr({ 'retry-after-ms': '250', 'retry-after': '9' }), 0)).toBe(250);
    expect(parseRetryAfter(hdr({ 'retry-after': 'soon' }), 0)).toBeUndefined();
    expect(parseRetryAfter(hdr({}), 0)).toBeUndefined();
  });
});

describe('request bodies', () => {
  it('asks the Responses API for first-token logprobs and never goes below its 16-token minimum', () => {
    const b = responsesBody(spec(model('openai-responses'), 0));
    expect(b.include).toEqual(['message.output_text.logprobs']);
    expect(b.top_logprobs).toBe(5);
    expect(b.max_output_tokens).toBe(16);
    expect(b.instructions).toBe('You are a player.');
    const s = responsesBody(spec(model('openai-responses'), 0, 'sample'));
    expect(s.include).toBeUndefined();
  });
});

for (const kind of ['openai-responses', 'openai-chat'] as const) {
  describe(`${kind} against the loopback server`, () => {
    let srv: Loopback;
    const faults = new Map<string, Fault>();
    const make = (timeoutMs = 2000): Provider => {
      const o = { apiKey: KEY, baseURL: srv.url, timeoutMs };
      return kind === 'openai-responses' ? createOpenAIResponsesProvider(o) : createOpenAIChatProvider(o);
    };
    const call = (rep: number, p = make()) => p.complete({ spec: spec(model(kind, srv.url), rep), signal: new AbortController().signal });
    const failure = async (rep: number, p?: Provider): Promise<ProviderError> => {
      try { await call(rep, p); } catch (e) { return e as ProviderError; }
      throw new Error('expected a failure');
    };

    beforeAll(async () => {
      srv = await startLoopback({
        fault: (key, n) => (n === 1 ? faults.get(key) : undefined),
        answer: () => ({ text: 'DEFECT', top: [['DE', 0.6], ['CO', 0.3], ['\n', 0.05]] }),
        snapshot: 'loop-model-2025-01-01',
      });
      const f = (rep: number, fault: Fault) => faults.set(keyOf(spec(model(kind), rep)), fault);
      f(1, { kind: 'rate_limit', retryAfter: '3' });
      f(2, { kind: 'server' });
      f(3, { kind: 'client' });
      f(4, { kind: 'hang' });
      f(5, { kind: 'malformed' });
      f(6, { kind: 'truncated' });
    });
    afterAll(() => srv.close());

    it('returns the text, the first position alternatives, the snapshot and the usage', async () => {
      const r = await call(0);
      expect(r.text).toBe('DEFECT');
      expect(r.modelSnapshot).toBe('loop-model-2025-01-01');
      expect(r.usage).toEqual({ inputTokens: 40, outputTokens: 2 });
      expect(r.firstTokenTopLogprobs?.map((t) => t.token)).toEqual(['DE', 'CO', '\n']);
      expect(Math.exp(r.firstTokenTopLogprobs![0].logprob)).toBeCloseTo(0.6, 12);
      expect(JSON.parse(r.raw)).toHaveProperty('model', 'loop-model-2025-01-01');
      expect(r.request).toHaveProperty('base_url', srv.url);
      const sent = srv.log.at(-1)!;
      expect(sent.authorization).toBe(`Bearer ${KEY}`); // the key was used …
      expect(JSON.stringify(r.request)).not.toContain(KEY); // … and is not in the request record
      expect(r.raw).not.toContain(KEY);
      if (kind === 'openai-chat') {
        expect(JSON.parse(sent.body)).toMatchObject({ logprobs: true, top_logprobs: 5, seed: 7, max_tokens: 4 });
      } else {
        expect(JSON.parse(sent.body)).toMatchObject({ include: ['message.output_text.logprobs'], top_logprobs: 5 });
      }
    });

    it('maps 429 with Retry-After to rate_limit with the wait', async () => {
      const e = await failure(1);
      expect(e).toBeInstanceOf(ProviderError);
      expect([e.kind, e.status, e.retryAfterMs]).toEqual(['rate_limit', 429, 3000]);
    });
    it('maps 500 to server and 400 to client', async () => {
      const e = await failure(2);
      expect([e.kind, e.status]).toEqual(['server', 500]);
      expect((await call(2)).text).toBe('DEFECT'); // the next attempt is answered
      expect((await failure(3)).kind).toBe('client');
    });
    it('maps a request that never answers to timeout', async () => {
      const e = await failure(4, make(300));
      expect(e.kind).toBe('timeout');
    });
    it('maps a body that is not JSON, and a body cut off mid-transfer, to malformed', async () => {
      const m = await failure(5);
      expect(m.kind).toBe('malformed');
      expect(m.raw).toContain('this is not json');
      const t = await failure(6);
      expect(t.kind).toBe('malformed');
      expect(t.message).toMatch(/ended early|not valid JSON/);
    });
    it('maps an abort by the caller to aborted', async () => {
      const ctl = new AbortController();
      ctl.abort();
      await expect(make().complete({ spec: spec(model(kind, srv.url), 9), signal: ctl.signal })).rejects.toMatchObject({ kind: 'aborted' });
    });
  });
}

describe('provider registry', () => {
  it('fails before any call on an unknown provider or a missing key, naming the variable', () => {
    const pool = new ProviderPool({ env: {} });
    expect(() => pool.prepare([model('nope')])).toThrow(new UserError(providersMsg.unknownProvider('nope', ['anthropic', 'gemini', 'openai-chat', 'openai-responses', 'simulated'])));
    expect(() => pool.prepare([model('openai-responses')])).toThrow(new UserError(providersMsg.missingKey('m1', 'OPENAI_API_KEY')));
    expect(() => pool.prepare([model('anthropic')])).toThrow(new UserError(providersMsg.missingKey('m1', 'ANTHROPIC_API_KEY')));
    expect(() => pool.prepare([model('gemini')])).toThrow(new UserError(providersMsg.missingKey('m1', 'GEMINI_API_KEY or GOOGLE_API_KEY')));
    // A base URL does not make a vendor's key optional (only a compatible server through openai-chat).
    expect(() => pool.prepare([model('anthropic', 'http://127.0.0.1:1')])).toThrow(providersMsg.missingKey('m1', 'ANTHROPIC_API_KEY'));
    expect(() => pool.prepare([model('openai-chat', 'http://127.0.0.1:1/v1', { apiKeyEnv: 'MY_KEY' })])).toThrow(providersMsg.missingKey('m1', 'MY_KEY'));
  });
  it('lets a compatible local server go without a key, and reuses one provider per endpoint', () => {
    const pool = new ProviderPool({ env: {} });
    const a = pool.get(model('openai-chat', 'http://127.0.0.1:1/v1'));
    const b = pool.get({ ...model('openai-chat', 'http://127.0.0.1:1/v1'), id: 'other' });
    expect(a).toBe(b);
    expect(a.id).toBe('openai-chat');
    expect(pool.get(model('simulated')).id).toBe('simulated');
  });
});
