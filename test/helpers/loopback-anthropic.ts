/**
 * A loopback HTTP server speaking the Anthropic Messages and Message Batches wire formats, for
 * tests only (127.0.0.1):
 *   POST /v1/messages                    → a `message` ({content: [{type: text}], model, usage})
 *   POST /v1/messages/batches            → a `message_batch` (processing_status in_progress)
 *   GET  /v1/messages/batches/{id}       → one step per retrieve: in_progress → ended (results_url set)
 *   GET  /v1/messages/batches            → the batches, newest first ({data, has_more, first_id, last_id})
 *   POST /v1/messages/batches/{id}/cancel → canceling; the next retrieve ends it, every line canceled
 *   GET  /v1/messages/batches/{id}/results → JSONL {custom_id, result: {type: succeeded | errored | canceled | expired}}
 * Faults per request of a trial (the x-samegame-trial header): 429 with retry-after, 529
 * overloaded_error, 500, 400, no answer, a body that is not JSON, a body cut off mid-transfer.
 * Batch lines fail as `errored` when chosen; a batch chosen to expire ends with its second half
 * `expired`. Any batch endpoint can fail the same ways on a chosen call (apiFault). Errors use the
 * documented body {type: "error", error: {type, message}}.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readRequest } from './loopback-request.js';
import type { AddressInfo } from 'node:net';
import { defaultAnswer, type Answer, type Fault } from './loopback-openai.js';

export type AnthropicFault = Fault | { kind: 'overloaded' };

export interface AnthropicLoopbackOptions {
  readonly fault?: (key: string, n: number) => AnthropicFault | undefined;
  readonly answer?: (prompt: string, key: string) => Answer;
  readonly snapshot?: string;
  /** The trial key of a batch line's custom_id (the tests map the hashed ids back). */
  readonly keyOf?: (customId: string) => string;
  /** Whether the n-th time (over all batches) a trial key is in a batch its line fails (errored). */
  readonly lineError?: (key: string, n: number) => boolean;
  /** Whether the n-th batch created expires. */
  readonly expires?: (n: number) => boolean;
  /** A fault for the n-th call (1-based) of a batch endpoint: create, retrieve, list, cancel or results; `truncated` on a create creates the batch and loses the answer. */
  readonly apiFault?: (what: BatchCall, n: number) => AnthropicFault | undefined;
}

export type BatchCall = 'create' | 'retrieve' | 'list' | 'cancel' | 'results';

interface BatchState {
  id: string; n: number; status: 'in_progress' | 'canceling' | 'ended'; created_at: string; polls: number;
  requests: { custom_id: string; params: Record<string, unknown> }[];
  results: string[]; counts: Record<'processing' | 'succeeded' | 'errored' | 'canceled' | 'expired', number>;
}

export interface AnthropicLoopback {
  /** Server root, as an anthropic model's base_url. */
  readonly url: string;
  readonly requests: Map<string, number>;
  /** Every request: method, path, x-api-key and authorization headers, body text, trial key. */
  readonly log: { method: string; path: string; apiKey: string | undefined; authorization: string | undefined; body: string; key: string }[];
  readonly batches: Map<string, BatchState>;
  /** Per trial key, the outcome each time it was in a batch: ok, errored, expired, canceled. */
  readonly outcomes: Map<string, string[]>;
  close(): Promise<void>;
}

export const promptOfMessages = (body: Record<string, unknown>): string =>
  ((body.messages ?? []) as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content).join('\n');

export function anthropicMessage(a: Answer, snapshot: string): Record<string, unknown> {
  return {
    id: 'msg_loop', type: 'message', role: 'assistant', model: snapshot, content: [{ type: 'text', text: a.text }],
    stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 40, output_tokens: 2 },
  };
}

const err = (type: string, message: string) => ({ type: 'error', error: { type, message } });

export async function startAnthropicLoopback(o: AnthropicLoopbackOptions = {}): Promise<AnthropicLoopback> {
  const requests = new Map<string, number>();
  const outcomes = new Map<string, string[]>();
  const perKey = new Map<string, number>();
  const batches = new Map<string, BatchState>();
  const log: AnthropicLoopback['log'] = [];
  const hanging = new Set<ServerResponse>();
  const snapshot = o.snapshot ?? 'claude-loop-20250101';
  let batchN = 0, base = '';

  const view = (b: BatchState) => ({
    id: b.id, type: 'message_batch', processing_status: b.status, request_counts: b.counts, created_at: b.created_at,
    expires_at: b.created_at, ended_at: b.status === 'ended' ? b.created_at : null, archived_at: null, cancel_initiated_at: null,
    results_url: b.status === 'ended' ? `${base}/v1/messages/batches/${b.id}/results` : null,
  });

  const finish = (b: BatchState, canceled: boolean) => {
    const expire = !canceled && (o.expires?.(b.n) ?? false);
    b.requests.forEach((r, i) => {
      const key = (o.keyOf ?? ((x: string) => x))(r.custom_id);
      const n = (perKey.get(key) ?? 0) + 1;
      perKey.set(key, n);
      const note = (what: string) => outcomes.set(key, [...(outcomes.get(key) ?? []), what]);
      let result: Record<string, unknown>;
      if (canceled) result = { type: 'canceled' };
      else if (expire && i >= b.requests.length / 2) result = { type: 'expired' };
      else if (o.lineError?.(key, n)) result = { type: 'errored', error: err('api_error', 'Internal server error') };
      else result = { type: 'succeeded', message: anthropicMessage((o.answer ?? defaultAnswer)(promptOfMessages(r.params), key), snapshot) };
      note(result.type === 'succeeded' ? 'ok' : String(result.type));
      b.counts[result.type as 'succeeded'] += 1;
      b.results.push(JSON.stringify({ custom_id: r.custom_id, result }));
    });
    b.counts.processing = 0;
    b.status = 'ended';
  };

  const calls = new Map<BatchCall, number>();
  const lost = new Set<ServerResponse>();
  /** Answer a fault (true) or let the call through (false). */
  const faulted = (res: ServerResponse, f: AnthropicFault | undefined): boolean => {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    switch (f?.kind) {
      case 'rate_limit': json(429, err('rate_limit_error', 'Number of requests has exceeded your rate limit'), f.retryAfter === undefined ? {} : { 'retry-after': f.retryAfter }); return true;
      case 'overloaded': json(529, err('overloaded_error', 'Overloaded')); return true;
      case 'server': json(500, err('api_error', 'Internal server error')); return true;
      case 'client': json(400, err('invalid_request_error', 'max_tokens: Field required')); return true;
      case 'hang': hanging.add(res); res.on('close', () => hanging.delete(res)); return true;
      case 'malformed': res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": "msg_loop", "content": [ not json'); return true;
      case 'truncated': {
        const full = JSON.stringify(anthropicMessage({ text: 'C' }, snapshot));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(full)) });
        res.write(full.slice(0, Math.floor(full.length / 2)), () => setTimeout(() => res.socket?.destroy(), 5));
        return true;
      }
      default: return false;
    }
  };

  const message = async (res: ServerResponse, text: string, key: string, n: number) => {
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (faulted(res, o.fault?.(key, n))) return;
    const body = JSON.parse(text) as Record<string, unknown>;
    if (typeof body.max_tokens !== 'number') { json(400, err('invalid_request_error', 'max_tokens: Field required')); return; }
    json(200, anthropicMessage((o.answer ?? defaultAnswer)(promptOfMessages(body), key), snapshot));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const { text, path, key } = await readRequest(req);
    log.push({ method: req.method ?? '', path, apiKey: req.headers['x-api-key'] as string | undefined, authorization: req.headers.authorization, body: text, key });
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && path === '/v1/messages') {
      const n = (requests.get(key) ?? 0) + 1;
      requests.set(key, n);
      return message(res, text, key, n);
    }
    const mb = /^\/v1\/messages\/batches(\/[^/]+)?(\/cancel|\/results)?$/.exec(path);
    if (mb) {
      const what: BatchCall = !mb[1] ? (req.method === 'POST' ? 'create' : 'list') : mb[2] === '/cancel' ? 'cancel' : mb[2] === '/results' ? 'results' : 'retrieve';
      const n = (calls.get(what) ?? 0) + 1;
      calls.set(what, n);
      const f = o.apiFault?.(what, n);
      // A create whose answer is lost: the batch exists, the client never learns its id.
      if (what === 'create' && f?.kind === 'truncated') lost.add(res);
      else if (faulted(res, f)) return;
    }
    if (req.method === 'POST' && path === '/v1/messages/batches') {
      const body = JSON.parse(text) as { requests?: BatchState['requests'] };
      if (!Array.isArray(body.requests) || body.requests.length === 0) return json(400, err('invalid_request_error', 'requests: at least one'));
      if (body.requests.some((r) => !/^[a-zA-Z0-9_-]{1,64}$/.test(r.custom_id))) return json(400, err('invalid_request_error', 'custom_id: invalid'));
      const n = ++batchN;
      const b: BatchState = { id: `msgbatch_${String(n).padStart(4, '0')}`, n, status: 'in_progress', created_at: new Date().toISOString(), polls: 0,
        requests: body.requests, results: [], counts: { processing: body.requests.length, succeeded: 0, errored: 0, canceled: 0, expired: 0 } };
      batches.set(b.id, b);
      if (lost.has(res)) { res.writeHead(200, { 'content-type': 'application/json' }); res.write('{"id": "msgbatch', () => setTimeout(() => res.socket?.destroy(), 5)); return; }
      return json(200, view(b));
    }
    if (req.method === 'GET' && path === '/v1/messages/batches') {
      const all = [...batches.values()].reverse().map(view);
      return json(200, { data: all, has_more: false, first_id: all[0]?.id ?? null, last_id: all.at(-1)?.id ?? null });
    }
    if ((m = /^\/v1\/messages\/batches\/([^/]+)(\/cancel|\/results)?$/.exec(path))) {
      const b = batches.get(m[1]);
      if (!b) return json(404, err('not_found_error', 'No such batch'));
      if (m[2] === '/cancel' && req.method === 'POST') { if (b.status === 'in_progress') b.status = 'canceling'; return json(200, view(b)); }
      if (m[2] === '/results') {
        if (b.status !== 'ended') return json(400, err('invalid_request_error', 'batch has not ended'));
        return res.writeHead(200, { 'content-type': 'application/binary' }).end(`${b.results.join('\n')}\n`);
      }
      if (b.status === 'canceling') finish(b, true);
      else if (b.status === 'in_progress' && ++b.polls >= 2) finish(b, false);
      return json(200, view(b));
    }
    return json(404, err('not_found_error', 'not found'));
  };

  const server = createServer((req, res) => { handle(req, res).catch(() => { if (!res.headersSent) res.writeHead(500).end(); }); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base, requests, log, batches, outcomes,
    close: () => new Promise<void>((r) => { for (const h of hanging) h.destroy(); server.closeAllConnections(); server.close(() => r()); }),
  };
}
