/**
 * A loopback HTTP server speaking the Gemini API's generateContent and Batch Mode wire formats,
 * for tests only (127.0.0.1):
 *   POST /v1beta/models/{model}:generateContent       → {candidates: [{content, logprobsResult}], usageMetadata, modelVersion}
 *   POST /v1beta/models/{model}:batchGenerateContent  → a batch operation (metadata.state BATCH_STATE_PENDING)
 *   GET  /v1beta/batches/{id}                         → one step per get: PENDING → RUNNING → SUCCEEDED (or EXPIRED);
 *        a finished one holds metadata.output.inlinedResponses.inlinedResponses [{response | error, metadata}]
 *   GET  /v1beta/batches                              → {operations, nextPageToken} (pages of pageSize)
 *   POST /v1beta/batches/{id}:cancel                  → {}; the batch is CANCELLED, its lines unanswered
 * logprobsResult follows the request: with generationConfig.responseLogprobs, the first position's
 * topCandidates hold the answer's alternatives (the first `logprobs` of them) and chosenCandidates
 * the sampled token. Faults per request of a trial (x-samegame-trial): 429 RESOURCE_EXHAUSTED
 * (Retry-After header, or RetryInfo in the body), 500, 503 UNAVAILABLE, 400 INVALID_ARGUMENT, no
 * answer, a body that is not JSON, a body cut off mid-transfer; any batch endpoint can fail the
 * same ways on a chosen call (apiFault). Errors are google.rpc.Status bodies.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readRequest } from './loopback-request.js';
import type { AddressInfo } from 'node:net';
import { defaultAnswer, type Answer, type Fault } from './loopback-openai.js';

export type GeminiFault = Fault | { kind: 'unavailable' } | { kind: 'retry_info'; delay: string };

export interface GeminiLoopbackOptions {
  readonly fault?: (key: string, n: number) => GeminiFault | undefined;
  readonly answer?: (prompt: string, key: string) => Answer;
  readonly snapshot?: string;
  readonly lineError?: (key: string, n: number) => boolean;
  readonly expires?: (n: number) => boolean;
  /** Operations per page of the batch list. */
  readonly pageSize?: number;
  /** A fault for the n-th call (1-based) of a batch endpoint: create, get, list or cancel; `truncated` on a create creates the batch and loses the answer. */
  readonly apiFault?: (what: BatchCall, n: number) => GeminiFault | undefined;
}

export type BatchCall = 'create' | 'get' | 'list' | 'cancel';

interface Op {
  name: string; n: number; model: string; displayName: string; state: string;
  requests: { request: Record<string, unknown>; metadata: { key: string } }[];
  responses?: unknown[]; stats: Record<string, string>;
}

export interface GeminiLoopback {
  /** Server root, as a gemini model's base_url. */
  readonly url: string;
  readonly requests: Map<string, number>;
  readonly log: { method: string; path: string; apiKey: string | undefined; body: string; key: string }[];
  readonly ops: Map<string, Op>;
  readonly outcomes: Map<string, string[]>;
  /** Batches created per displayName. */
  readonly createdPerName: Map<string, number>;
  close(): Promise<void>;
}

export const promptOfContents = (body: Record<string, unknown>): string =>
  ((body.contents ?? []) as { role?: string; parts: { text?: string }[] }[]).filter((c) => c.role !== 'model')
    .flatMap((c) => c.parts.map((p) => p.text ?? '')).join('\n');

export function geminiAnswer(request: Record<string, unknown>, a: Answer, snapshot: string): Record<string, unknown> {
  const gc = (request.generationConfig ?? {}) as { responseLogprobs?: boolean; logprobs?: number };
  const top = (a.top ?? []).slice(0, gc.logprobs ?? 0).map(([token, p]) => ({ token, logProbability: Math.log(p) }));
  return {
    candidates: [{
      content: { parts: [{ text: a.text }], role: 'model' }, finishReason: 'STOP', index: 0,
      ...(gc.responseLogprobs ? { logprobsResult: { topCandidates: [{ candidates: top }], chosenCandidates: top.slice(0, 1) } } : {}),
    }],
    usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 2, totalTokenCount: 42 },
    modelVersion: snapshot, responseId: 'loop',
  };
}

const status = (code: number, st: string, message: string, details?: unknown[]) => ({ error: { code, message, status: st, ...(details ? { details } : {}) } });

export async function startGeminiLoopback(o: GeminiLoopbackOptions = {}): Promise<GeminiLoopback> {
  const requests = new Map<string, number>();
  const outcomes = new Map<string, string[]>();
  const perKey = new Map<string, number>();
  const createdPerName = new Map<string, number>();
  const ops = new Map<string, Op>();
  const log: GeminiLoopback['log'] = [];
  const hanging = new Set<ServerResponse>();
  const snapshot = o.snapshot ?? 'gemini-loop-001';
  let opN = 0;

  const view = (op: Op) => {
    const output = op.responses ? { inlinedResponses: { inlinedResponses: op.responses } } : undefined;
    return {
      name: op.name,
      metadata: { '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatch', model: op.model,
        displayName: op.displayName, state: op.state, batchStats: op.stats, name: op.name, ...(output ? { output } : {}) },
      ...(op.responses ? { done: true, response: { '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatchOutput', ...output } } : {}),
    };
  };

  const finish = (op: Op, state: string) => {
    const half = op.requests.length / 2;
    let ok = 0, failed = 0;
    op.responses = op.requests.flatMap((r, i): unknown[] => {
      const key = r.metadata.key;
      const n = (perKey.get(key) ?? 0) + 1;
      perKey.set(key, n);
      const note = (what: string) => outcomes.set(key, [...(outcomes.get(key) ?? []), what]);
      if (state === 'BATCH_STATE_CANCELLED' || (state === 'BATCH_STATE_EXPIRED' && i >= half)) { note(state === 'BATCH_STATE_CANCELLED' ? 'cancelled' : 'expired'); return []; }
      if (o.lineError?.(key, n)) { note('error'); failed++; return [{ error: { code: 13, message: 'Internal error' }, metadata: r.metadata }]; }
      note('ok');
      ok++;
      return [{ response: geminiAnswer(r.request, (o.answer ?? defaultAnswer)(promptOfContents(r.request), key), snapshot), metadata: r.metadata }];
    });
    op.state = state;
    op.stats = { requestCount: String(op.requests.length), successfulRequestCount: String(ok), failedRequestCount: String(failed), pendingRequestCount: '0' };
  };

  /** Answer a fault (true) or let the call through (false). */
  const faulted = (res: ServerResponse, f: GeminiFault | undefined): boolean => {
    const json = (code: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(code, { 'content-type': 'application/json; charset=UTF-8', ...headers }).end(JSON.stringify(body));
    switch (f?.kind) {
      case 'rate_limit': json(429, status(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).'), f.retryAfter === undefined ? {} : { 'retry-after': f.retryAfter }); return true;
      case 'retry_info': json(429, status(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded', [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: f.delay }])); return true;
      case 'server': json(500, status(500, 'INTERNAL', 'An internal error has occurred.')); return true;
      case 'unavailable': json(503, status(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.')); return true;
      case 'client': json(400, status(400, 'INVALID_ARGUMENT', 'Invalid value at generation_config.logprobs')); return true;
      case 'hang': hanging.add(res); res.on('close', () => hanging.delete(res)); return true;
      case 'malformed': res.writeHead(200, { 'content-type': 'application/json' }).end('{"candidates": [ not json'); return true;
      case 'truncated': {
        const full = JSON.stringify(geminiAnswer({}, { text: 'C' }, snapshot));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(full)) });
        res.write(full.slice(0, Math.floor(full.length / 2)), () => setTimeout(() => res.socket?.destroy(), 5));
        return true;
      }
      default: return false;
    }
  };
  const calls = new Map<BatchCall, number>();
  const lost = new Set<ServerResponse>();
  const batchFault = (res: ServerResponse, what: BatchCall): boolean => {
    const n = (calls.get(what) ?? 0) + 1;
    calls.set(what, n);
    const f = o.apiFault?.(what, n);
    // A create whose answer is lost: the batch exists, the client never learns its name.
    if (what === 'create' && f?.kind === 'truncated') { lost.add(res); return false; }
    return faulted(res, f);
  };

  const generate = (res: ServerResponse, text: string, key: string, n: number) => {
    if (faulted(res, o.fault?.(key, n))) return;
    const body = JSON.parse(text) as Record<string, unknown>;
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' })
      .end(JSON.stringify(geminiAnswer(body, (o.answer ?? defaultAnswer)(promptOfContents(body), key), snapshot)));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const { text, path, query, key } = await readRequest(req);
    log.push({ method: req.method ?? '', path, apiKey: req.headers['x-goog-api-key'] as string | undefined, body: text, key });
    const json = (code: number, body: unknown) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && (m = /^\/v1beta\/models\/([^/:]+):(generateContent|batchGenerateContent)$/.exec(path))) {
      if (m[2] === 'generateContent') {
        const n = (requests.get(key) ?? 0) + 1;
        requests.set(key, n);
        return generate(res, text, key, n);
      }
      if (batchFault(res, 'create')) return;
      const body = JSON.parse(text) as { batch?: { displayName?: string; inputConfig?: { requests?: { requests?: Op['requests'] } } } };
      const reqs = body.batch?.inputConfig?.requests?.requests;
      if (!Array.isArray(reqs) || reqs.length === 0 || typeof body.batch?.displayName !== 'string') return json(400, status(400, 'INVALID_ARGUMENT', 'batch.inputConfig is required'));
      const n = ++opN;
      const op: Op = { name: `batches/loop${n}`, n, model: `models/${m[1]}`, displayName: body.batch.displayName, state: 'BATCH_STATE_PENDING', requests: reqs,
        stats: { requestCount: String(reqs.length), pendingRequestCount: String(reqs.length) } };
      ops.set(op.name, op);
      createdPerName.set(op.displayName, (createdPerName.get(op.displayName) ?? 0) + 1);
      if (lost.has(res)) { res.writeHead(200, { 'content-type': 'application/json' }); res.write('{"name": "batches/', () => setTimeout(() => res.socket?.destroy(), 5)); return; }
      return json(200, view(op));
    }
    if (req.method === 'GET' && path === '/v1beta/batches') {
      if (batchFault(res, 'list')) return;
      const q = new URLSearchParams(query ?? '');
      const all = [...ops.values()].reverse();
      const from = Number(q.get('pageToken') ?? 0);
      const size = Math.min(Number(q.get('pageSize') ?? 50), o.pageSize ?? 50);
      const page = all.slice(from, from + size);
      return json(200, { operations: page.map(view), ...(from + size < all.length ? { nextPageToken: String(from + size) } : {}) });
    }
    if ((m = /^\/v1beta\/(batches\/[^/:]+)(:cancel)?$/.exec(path))) {
      if (batchFault(res, m[2] ? 'cancel' : 'get')) return;
      const op = ops.get(m[1]);
      if (!op) return json(404, status(404, 'NOT_FOUND', 'Requested entity was not found.'));
      if (m[2] && req.method === 'POST') { if (!op.responses) finish(op, 'BATCH_STATE_CANCELLED'); return json(200, {}); }
      if (op.state === 'BATCH_STATE_PENDING') op.state = 'BATCH_STATE_RUNNING';
      else if (op.state === 'BATCH_STATE_RUNNING') finish(op, o.expires?.(op.n) ? 'BATCH_STATE_EXPIRED' : 'BATCH_STATE_SUCCEEDED');
      return json(200, view(op));
    }
    return json(404, status(404, 'NOT_FOUND', 'not found'));
  };

  const server = createServer((req, res) => { handle(req, res).catch(() => { if (!res.headersSent) res.writeHead(500).end(); }); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, log, ops, outcomes, createdPerName,
    close: () => new Promise<void>((r) => { for (const h of hanging) h.destroy(); server.closeAllConnections(); server.close(() => r()); }),
  };
}
