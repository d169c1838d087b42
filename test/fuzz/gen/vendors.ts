/**
 * Vendor answers from a loopback server of each wire format (OpenAI chat and Responses, Anthropic
 * Messages, Gemini generateContent), scripted per trial and attempt by a seeded generator: a good
 * answer (the C or the D word, with first-token candidates where the scoring reads them), first-
 * token candidates a reader used to leave out (a log-probability that is text, null, positive or
 * +∞; no token), a body above 4 MiB, a 429 asking to wait 10^12 ms, a 500, a body that is not
 * JSON, a 400. The run must keep the contract, and store for every trial what an independent
 * replay of its script says: status, attempts, action, and P(C) = p_C/(p_C + p_D) from the
 * candidates as sent — never a good status for a bad answer.
 */
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { askedWords } from '../../helpers/loopback-openai.js';
import { startRawLoopback, type RawAnswer, type RawLoopback } from '../../helpers/loopback-raw.js';
import { stream, type FuzzCase } from './common.js';

const WIRES = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const;
type Wire = typeof WIRES[number];
const GOOD = ['good-C', 'good-D'] as const;
const BAD_CANDIDATES = ['lp-text', 'lp-null', 'lp-positive', 'lp-infinite', 'no-token'] as const;
const RETRYABLE = ['big', 'retry-huge', 'server', 'not-json'] as const;
type Behaviour = typeof GOOD[number] | typeof BAD_CANDIDATES[number] | typeof RETRYABLE[number] | 'client';
const P = { C: 0.62, D: 0.21 };

const logprobs = (w: Wire) => w === 'gemini' || w === 'openai-chat';

/** The candidates of a good answer (C and D words, and one other token), with one made bad when asked. */
function candidates(words: [string, string], b: Behaviour): { token?: unknown; lp?: unknown }[] {
  const c: { token?: unknown; lp?: unknown }[] = [{ token: words[0], lp: Math.log(P.C) }, { token: words[1], lp: Math.log(P.D) }, { token: 'The', lp: Math.log(0.05) }];
  if (b === 'lp-text') c[2].lp = '-0.1';
  if (b === 'lp-null') c[2].lp = null;
  if (b === 'lp-positive') c[2].lp = 0.4;
  if (b === 'lp-infinite') c[2].lp = 'INF';
  if (b === 'no-token') delete c[2].token;
  return c;
}

function body(w: Wire, words: [string, string], b: Behaviour): string {
  const text = b === 'good-D' ? words[1] : words[0];
  const cs = candidates(words, b);
  const usage = { a: 12, b: 1 };
  let s: string;
  if (w === 'anthropic') s = JSON.stringify({ id: 'm', type: 'message', role: 'assistant', model: 'loop', content: [{ type: 'text', text }], usage: { input_tokens: usage.a, output_tokens: usage.b } });
  else if (w === 'openai-responses') s = JSON.stringify({ id: 'r', object: 'response', model: 'loop', status: 'completed', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }], usage: { input_tokens: usage.a, output_tokens: usage.b } });
  else if (w === 'openai-chat') {
    const top = cs.map((c) => ({ ...(c.token === undefined ? {} : { token: c.token }), logprob: c.lp }));
    s = JSON.stringify({ id: 'c', object: 'chat.completion', model: 'loop', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop', logprobs: { content: [{ token: text, logprob: -0.1, top_logprobs: top }] } }], usage: { prompt_tokens: usage.a, completion_tokens: usage.b } });
  } else {
    const top = cs.map((c) => ({ ...(c.token === undefined ? {} : { token: c.token }), logProbability: c.lp }));
    s = JSON.stringify({ candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', logprobsResult: { topCandidates: [{ candidates: top }], chosenCandidates: top.slice(0, 1) } }], usageMetadata: { promptTokenCount: usage.a, candidatesTokenCount: usage.b }, modelVersion: 'loop' });
  }
  return s.replace('"INF"', '1e999');
}

function answer(w: Wire, b: Behaviour, request: string): RawAnswer {
  const words = askedWords(request.replace(/\\n/g, '\n')) ?? ['C', 'D'];
  if (b === 'big') return { bytes: 5 * 2 ** 20, field: 'pad' };
  if (b === 'retry-huge') return { status: 429, headers: { 'retry-after': '1000000000000' }, body: JSON.stringify({ error: { message: 'slow', type: 'rate_limit_error', status: 'RESOURCE_EXHAUSTED', code: 429 } }) };
  if (b === 'server') return { status: 500, body: JSON.stringify({ error: { message: 'boom', code: 500 } }) };
  if (b === 'not-json') return { body: '<html>busy</html>' };
  if (b === 'client') return { status: 400, body: JSON.stringify({ error: { message: 'bad request', type: 'invalid_request_error', code: 400 } }) };
  return { body: body(w, words as [string, string], b) };
}

/** The independent replay of a trial's script. */
function replay(w: Wire, list: readonly Behaviour[]): { status: string; attempts: number; action: string | null; p: number | null } {
  for (let n = 1; n <= list.length; n++) {
    const b = list[n - 1];
    if (b === 'client') return { status: 'error', attempts: n, action: null, p: null };
    if ((RETRYABLE as readonly string[]).includes(b)) continue;
    const action = b === 'good-D' ? 'D' : 'C';
    if (!logprobs(w)) return { status: 'ok', attempts: n, action, p: null };
    if ((BAD_CANDIDATES as readonly string[]).includes(b)) return { status: 'invalid', attempts: n, action, p: null };
    return { status: 'ok', attempts: n, action, p: P.C / (P.C + P.D) };
  }
  return { status: 'error', attempts: list.length, action: null, p: null };
}

export async function vendorCases(dir: string, seed: number, count: number): Promise<{ cases: FuzzCase[]; server: RawLoopback }> {
  const r = stream(seed);
  const scripts = new Map<string, { wire: Wire; list: Behaviour[] }>();
  const server = await startRawLoopback((key, n, _path, req) => {
    const s = scripts.get(key);
    return s ? answer(s.wire, s.list[n - 1] ?? 'server', req) : { status: 404, body: '{}' };
  });
  const cases: FuzzCase[] = [];
  const maxRetries = 1;
  for (let i = 0; i < count; i++) {
    const wire = WIRES[i % WIRES.length];
    const d = join(dir, `vendor-${i}`);
    mkdirSync(d);
    const trials = 2 + r.int(2);
    const model = `V${i}`;
    const pool: Behaviour[] = [...GOOD, ...GOOD, ...(logprobs(wire) ? BAD_CANDIDATES : []), ...RETRYABLE, 'client'];
    const lists = Array.from({ length: trials }, () => Array.from({ length: maxRetries + 1 }, () => r.pick(pool)));
    lists.forEach((list, rep) => scripts.set(`${model}|harmony|business|${rep}`, { wire, list }));
    writeFileSync(join(d, 'd.yaml'), `name: v\nmodels:\n  - { id: ${model}, provider: ${wire}, model: loop, base_url: "${server.url}", api_key_env: SAMEGAME_FUZZ_KEY }\ngames: [harmony]\nframings: [business]\ntrials: ${trials}\nscoring: ${logprobs(wire) ? 'logprobs' : 'sample'}\n`);
    const store = join(d, 's.sqlite');
    cases.push({
      name: `run against a fuzzed ${wire} server #${i} ${JSON.stringify(lists)}`,
      argv: ['run', join(d, 'd.yaml'), '--store', store, '--max-retries', String(maxRetries), '--timeout-ms', '5000', '-q'],
      outputs: [],
      boundMs: 60_000,
      accepted: () => {
        const db = new Database(store, { readonly: true });
        const rows = db.prepare('SELECT rep, status, attempts, action, p_cooperate FROM trials ORDER BY rep').all() as { rep: number; status: string; attempts: number; action: string | null; p_cooperate: number | null }[];
        db.close();
        const problems = rows.length === trials ? [] : [`${rows.length} trials stored of ${trials}`];
        for (const t of rows) {
          const want = replay(wire, lists[t.rep]);
          const action = t.status === 'error' ? null : t.action;
          const same = t.status === want.status && t.attempts === want.attempts && action === (want.status === 'error' ? null : want.action)
            && (want.p === null ? t.p_cooperate === null : Math.abs((t.p_cooperate ?? NaN) - want.p) < 1e-9);
          if (!same) problems.push(`rep ${t.rep}: stored ${JSON.stringify(t)}, replay says ${JSON.stringify(want)}`);
        }
        return problems;
      },
    });
  }
  return { cases, server };
}
