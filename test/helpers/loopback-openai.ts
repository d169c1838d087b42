/**
 * A loopback HTTP server that speaks the OpenAI Responses and Chat Completions wire formats with
 * first-token logprobs, for tests only (no network beyond 127.0.0.1). Faults are injected per
 * request: 429 with Retry-After, 500, 400, a request that never answers, a body that is not JSON,
 * and a body cut off mid-transfer. Requests are counted per trial key (the x-samegame-trial header).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readRequest } from './loopback-request.js';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';

export type Fault =
  | { kind: 'rate_limit'; retryAfter?: string; retryAfterMs?: string }
  | { kind: 'server' }
  | { kind: 'client' }
  | { kind: 'hang' }
  | { kind: 'malformed' }
  | { kind: 'truncated' };

export interface Answer {
  readonly text: string;
  /** First-position alternatives (probabilities, turned into logprobs on the wire). */
  readonly top?: ReadonlyArray<readonly [string, number]>;
}

export interface LoopbackOptions {
  /** The fault for the n-th request (1-based) of a trial key, or undefined to answer normally. */
  readonly fault?: (key: string, n: number) => Fault | undefined;
  readonly answer?: (prompt: string, key: string) => Answer;
  /** Delay before each normal answer. */
  readonly delayMs?: number;
  /** The snapshot reported in the `model` field. */
  readonly snapshot?: string;
  /** Awaited before each normal answer: a test holds every answer until it opens this gate. */
  readonly hold?: () => Promise<void>;
}

export interface Loopback {
  /** Base URL for the SDK, ending in /v1. */
  readonly url: string;
  /** Requests received per trial key (every attempt counts). */
  readonly requests: Map<string, number>;
  /** Normal answers fully sent, per trial key. */
  readonly answered: Map<string, number>;
  /** Every request: path, authorization header and body text. */
  readonly log: { path: string; authorization: string | undefined; body: string; key: string }[];
  /** 'request' (key, n) on each request received, 'answered' (key) after each normal answer is sent. */
  readonly events: EventEmitter;
  /** Resolves once `total(answered)` (or requests) reaches n: tests wait on events, not on time. */
  waitFor(what: 'request' | 'answered', n: number): Promise<void>;
  close(): Promise<void>;
}

/** The two action words a samegame prompt asks for ("Answer with exactly one word, either X or Y"). */
export function askedWords(prompt: string): [string, string] | undefined {
  const m = /either (\S+) or (\S+?),? and nothing else/.exec(prompt);
  return m ? [m[1], m[2]] : undefined;
}

/** Default answer: the C-word (first asked) for even reps, the D-word for odd reps; P(C) = 0.7 on the first token. */
export function defaultAnswer(prompt: string, key: string): Answer {
  const words = askedWords(prompt) ?? ['C', 'D'];
  const rep = Number(key.split('|').pop());
  return { text: words[rep % 2 === 0 ? 0 : 1], top: [[words[0], 0.7], [words[1], 0.3]] };
}

export function promptOf(body: Record<string, unknown>): string {
  if (typeof body.input === 'string') return body.input;
  const msgs = Array.isArray(body.messages) ? body.messages as { role: string; content: string }[] : [];
  return msgs.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
}

export function wire(path: string, body: Record<string, unknown>, a: Answer, snapshot: string): unknown {
  const logprobs = a.top === undefined ? [] : [{
    token: a.top[0][0], logprob: Math.log(a.top[0][1]), bytes: [],
    top_logprobs: a.top.map(([token, p]) => ({ token, logprob: Math.log(p), bytes: [] })),
  }];
  const wantLogprobs = path.endsWith('/responses') ? Array.isArray(body.include) : body.logprobs === true;
  if (path.endsWith('/responses')) {
    return {
      id: 'resp_loop', object: 'response', created_at: 0, status: 'completed', model: snapshot,
      output: [{
        type: 'message', id: 'msg_loop', status: 'completed', role: 'assistant',
        content: [{ type: 'output_text', text: a.text, annotations: [], ...(wantLogprobs ? { logprobs } : {}) }],
      }],
      usage: { input_tokens: 40, output_tokens: 2, total_tokens: 42 },
    };
  }
  return {
    id: 'chatcmpl_loop', object: 'chat.completion', created: 0, model: snapshot,
    choices: [{ index: 0, message: { role: 'assistant', content: a.text }, finish_reason: 'stop', logprobs: wantLogprobs ? { content: logprobs } : null }],
    usage: { prompt_tokens: 40, completion_tokens: 2, total_tokens: 42 },
  };
}

export async function startLoopback(o: LoopbackOptions = {}): Promise<Loopback> {
  const requests = new Map<string, number>();
  const answered = new Map<string, number>();
  const log: Loopback['log'] = [];
  const hanging = new Set<ServerResponse>();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const waitFor = (what: 'request' | 'answered', n: number) => new Promise<void>((resolve) => {
    const m = what === 'request' ? requests : answered;
    const check = () => { if (sum(m) >= n) { events.off(what, check); resolve(); } };
    events.on(what, check);
    check();
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const { text, path, key } = await readRequest(req);
    const auth = req.headers.authorization;
    log.push({ path, authorization: auth, body: text, key });
    const n = (requests.get(key) ?? 0) + 1;
    requests.set(key, n);
    events.emit('request', key, n);
    if (req.method !== 'POST' || !(path.endsWith('/responses') || path.endsWith('/chat/completions'))) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    const fault = o.fault?.(key, n);
    switch (fault?.kind) {
      case 'rate_limit':
        return json(429, { error: { message: 'Rate limit reached', type: 'requests' } }, {
          ...(fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter }),
          ...(fault.retryAfterMs === undefined ? {} : { 'retry-after-ms': fault.retryAfterMs }),
        });
      case 'server': return json(500, { error: { message: 'The server had an error' } });
      case 'client': return json(400, { error: { message: 'Invalid parameter' } });
      case 'hang': hanging.add(res); res.on('close', () => hanging.delete(res)); return;
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": "resp_loop", "output": [ this is not json');
        return;
      case 'truncated': {
        const full = JSON.stringify(wire(path, JSON.parse(text) as Record<string, unknown>, { text: 'C' }, o.snapshot ?? 'loop-model-2025-01-01'));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(full)) });
        res.write(full.slice(0, Math.floor(full.length / 2)), () => setTimeout(() => res.socket?.destroy(), 5));
        return;
      }
      default: {
        if (o.delayMs) await new Promise((r) => setTimeout(r, o.delayMs));
        if (o.hold) await o.hold();
        const body = JSON.parse(text) as Record<string, unknown>;
        const a = (o.answer ?? defaultAnswer)(promptOf(body), key);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(wire(path, body, a, o.snapshot ?? 'loop-model-2025-01-01')), () => {
          answered.set(key, (answered.get(key) ?? 0) + 1);
          events.emit('answered', key);
        });
      }
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => { if (!res.headersSent) res.writeHead(500).end(); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests, answered, log, events, waitFor,
    close: () => new Promise<void>((r) => {
      for (const h of hanging) h.destroy();
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
