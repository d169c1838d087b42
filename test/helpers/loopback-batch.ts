/**
 * A loopback HTTP server speaking the OpenAI Files and Batches wire format, for tests only:
 *   POST /v1/files (multipart, purpose batch), GET /v1/files/{id}/content,
 *   POST /v1/batches, GET /v1/batches/{id}, GET /v1/batches (newest first, limit/after),
 *   POST /v1/batches/{id}/cancel.
 * A batch moves one status per retrieve: validating → in_progress → finalizing → completed; one
 * chosen to expire goes in_progress → expired with the first half of its lines answered and the
 * rest in the error file (code batch_expired). Output lines carry the same bodies the synchronous
 * loopback server (loopback-openai.ts) answers; a chosen line fails with status 500 in the error
 * file. Batches created are counted per chunk (the samegame_* metadata).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultAnswer, promptOf, wire, type Answer } from './loopback-openai.js';

export interface BatchLoopbackOptions {
  readonly answer?: (prompt: string, key: string) => Answer;
  /** Whether the n-th request (1-based, over all batches) of a trial key fails as a line-level error. */
  readonly lineError?: (key: string, n: number) => boolean;
  /** Whether the n-th batch created (1-based) expires. */
  readonly expires?: (n: number) => boolean;
  readonly snapshot?: string;
  /** The output file's lines as written (answers as the vendor might send them again, or for ids it was never given). */
  readonly outputLines?: (lines: string[]) => string[];
}

interface BatchState {
  id: string; n: number; endpoint: string; input_file_id: string; metadata: Record<string, string>;
  status: string; created_at: number; output_file_id: string | null; error_file_id: string | null;
  total: number; completed: number; failed: number;
}

export interface BatchLoopback {
  readonly url: string;
  /** Batches created per chunk ("store|run|chunk" from the metadata). */
  readonly createdPerChunk: Map<string, number>;
  /** Per trial key, the outcome of each time it was in a batch: ok, error, expired or cancelled. */
  readonly outcomes: Map<string, string[]>;
  /** Input files uploaded (text), by file id. */
  readonly files: Map<string, string>;
  readonly batches: Map<string, BatchState>;
  /** Every request's path and authorization header. */
  readonly log: { method: string; path: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

const NEXT: Readonly<Record<string, string>> = { validating: 'in_progress', in_progress: 'finalizing', finalizing: 'completed', cancelling: 'cancelled' };

export async function startBatchLoopback(o: BatchLoopbackOptions = {}): Promise<BatchLoopback> {
  const files = new Map<string, string>();
  const batches = new Map<string, BatchState>();
  const createdPerChunk = new Map<string, number>();
  const outcomes = new Map<string, string[]>();
  const requestsPerKey = new Map<string, number>();
  const log: BatchLoopback['log'] = [];
  let fileN = 0, batchN = 0;

  const view = (b: BatchState) => ({
    id: b.id, object: 'batch', endpoint: b.endpoint, errors: null, input_file_id: b.input_file_id, completion_window: '24h',
    status: b.status, output_file_id: b.output_file_id, error_file_id: b.error_file_id, created_at: b.created_at,
    request_counts: { total: b.total, completed: b.completed, failed: b.failed }, metadata: b.metadata,
  });

  /** Answer the batch's lines as it enters a terminal status. */
  const finish = (b: BatchState, status: string) => {
    const lines = files.get(b.input_file_id)!.split('\n').filter((l) => l !== '');
    const out: string[] = [], err: string[] = [];
    lines.forEach((l, i) => {
      const req = JSON.parse(l) as { custom_id: string; url: string; body: Record<string, unknown> };
      const key = req.custom_id;
      const n = (requestsPerKey.get(key) ?? 0) + 1;
      requestsPerKey.set(key, n);
      const note = (what: string) => outcomes.set(key, [...(outcomes.get(key) ?? []), what]);
      const id = `batch_req_${b.id}_${i}`;
      if (status === 'cancelled' || (status === 'expired' && i >= lines.length / 2)) {
        note(status);
        err.push(JSON.stringify({ id, custom_id: key, response: null, error: { code: status === 'expired' ? 'batch_expired' : 'batch_cancelled', message: `This request could not be executed before the batch was ${status}.` } }));
      } else if (o.lineError?.(key, n)) {
        note('error');
        err.push(JSON.stringify({ id, custom_id: key, response: { status_code: 500, request_id: `req_${i}`, body: { error: { message: 'The server had an error', type: 'server_error' } } }, error: null }));
      } else {
        note('ok');
        const a = (o.answer ?? defaultAnswer)(promptOf(req.body), key);
        out.push(JSON.stringify({ id, custom_id: key, response: { status_code: 200, request_id: `req_${i}`, body: wire(req.url, req.body, a, o.snapshot ?? 'loop-model-2025-01-01') }, error: null }));
      }
    });
    const save = (text: string[]) => { if (text.length === 0) return null; const fid = `file-out-${++fileN}`; files.set(fid, `${text.join('\n')}\n`); return fid; };
    Object.assign(b, { status, output_file_id: save(o.outputLines ? o.outputLines(out) : out), error_file_id: save(err), completed: out.length, failed: err.length });
  };

  const advance = (b: BatchState) => {
    if (['completed', 'expired', 'cancelled', 'failed'].includes(b.status)) return;
    const next = b.status === 'in_progress' && o.expires?.(b.n) ? 'expired' : NEXT[b.status];
    if (next === 'completed' || next === 'expired' || next === 'cancelled') finish(b, next);
    else b.status = next;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const [path, query] = (req.url ?? '').split('?');
    log.push({ method: req.method ?? '', path, authorization: req.headers.authorization });
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && path === '/v1/files') {
      const fd = await new Request('http://loopback/', { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body: raw }).formData();
      const file = fd.get('file') as File;
      const id = `file-in-${++fileN}`;
      files.set(id, await file.text());
      return json(200, { id, object: 'file', bytes: file.size, created_at: 0, filename: file.name, purpose: fd.get('purpose'), status: 'processed' });
    }
    if (req.method === 'GET' && (m = /^\/v1\/files\/([^/]+)\/content$/.exec(path))) {
      const text = files.get(m[1]);
      if (text === undefined) return json(404, { error: { message: 'No such file' } });
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(text);
    }
    if (req.method === 'POST' && path === '/v1/batches') {
      const body = JSON.parse(raw.toString('utf8')) as { input_file_id: string; endpoint: string; completion_window: string; metadata?: Record<string, string> };
      if (!files.has(body.input_file_id) || body.completion_window !== '24h') return json(400, { error: { message: 'bad batch request' } });
      const n = ++batchN;
      const md = body.metadata ?? {};
      const chunk = `${md.samegame_store}|${md.samegame_run}|${md.samegame_chunk}`;
      createdPerChunk.set(chunk, (createdPerChunk.get(chunk) ?? 0) + 1);
      const total = files.get(body.input_file_id)!.split('\n').filter((l) => l !== '').length;
      const b: BatchState = { id: `batch_${n}`, n, endpoint: body.endpoint, input_file_id: body.input_file_id, metadata: md, status: 'validating',
        created_at: n, output_file_id: null, error_file_id: null, total, completed: 0, failed: 0 };
      batches.set(b.id, b);
      return json(200, view(b));
    }
    if (req.method === 'GET' && path === '/v1/batches') {
      const q = new URLSearchParams(query ?? '');
      const all = [...batches.values()].reverse();
      const after = q.get('after');
      const from = after === null ? 0 : all.findIndex((b) => b.id === after) + 1;
      const page = all.slice(from, from + Number(q.get('limit') ?? 20));
      return json(200, { object: 'list', data: page.map(view), first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null, has_more: from + page.length < all.length });
    }
    if ((m = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path))) {
      const b = batches.get(m[1]);
      if (!b) return json(404, { error: { message: 'No such batch' } });
      if (m[2] && req.method === 'POST') { if (!['completed', 'expired', 'cancelled', 'failed'].includes(b.status)) b.status = 'cancelling'; }
      else if (req.method === 'GET') advance(b);
      return json(200, view(b));
    }
    return json(404, { error: { message: 'not found' } });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => { if (!res.headersSent) res.writeHead(500).end(); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`, createdPerChunk, outcomes, files, batches, log,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
