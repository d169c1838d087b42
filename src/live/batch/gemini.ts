/**
 * Gemini Batch Mode through the official SDK: POST /v1beta/models/{model}:batchGenerateContent
 * with the chunk's requests inline (`{request, metadata: {key}}`, request exactly the synchronous
 * generateContent body, key the trial key) and a displayName naming the store, run and chunk, so a
 * run killed after the create call finds its batch by listing. The batch (a long-running
 * operation, GET /v1beta/batches/{id}) is polled by `metadata.state` (BATCH_STATE_PENDING →
 * RUNNING → SUCCEEDED | FAILED | CANCELLED | EXPIRED); a finished one holds its inline responses,
 * each `{response}` or `{error}` with the request's metadata. Every call passes through the
 * capturing fetch, so the operation is read as the documented JSON, not the SDK's conversion.
 */
import type { GoogleGenAI } from '@google/genai';
import { capturedCall, geminiBody, geminiClient, geminiRecord, readGemini, sdkParams } from '../providers/gemini.js';
import { isObject, type Json } from '../providers/wire.js';
import { modelKey } from '../providers/registry.js';
import { ProviderError, type ModelSpec } from '../types.js';
import { batchKey } from './keys.js';
import { createOnce, retrying, type BatchApiOptions, type BatchClient, type BatchInfo, type BatchTag, type BatchVendor, type ResultLine } from './vendor.js';

const ENDED = ['SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED'];
/** Final states, as the Gemini API (BATCH_STATE_*) or the SDK (JOB_STATE_*) spells them. */
export const geminiTerminal = (s: string): boolean => ENDED.some((e) => s === `BATCH_STATE_${e}` || s === `JOB_STATE_${e}`);

export const displayName = (t: BatchTag): string => `samegame-${t.store}-run${t.run}-chunk${t.chunk}`;

const count = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0);

/** The inline responses of a finished batch operation (metadata.output, or the operation's response). */
function inlineLines(op: Json): ResultLine[] {
  const meta = isObject(op.metadata) ? op.metadata : {};
  const out = isObject(meta.output) ? meta.output : isObject(op.response) ? op.response : {};
  const wrap = isObject(out.inlinedResponses) ? out.inlinedResponses.inlinedResponses : undefined;
  const lines: ResultLine[] = [];
  for (const r of Array.isArray(wrap) ? wrap : []) {
    if (!isObject(r) || !isObject(r.metadata) || typeof r.metadata.key !== 'string') continue;
    lines.push({ customId: r.metadata.key, ...(isObject(r.response) && r.error === undefined ? { body: r.response } : {}) });
  }
  return lines;
}

/** A batch operation → what the run reads (and, once finished, its lines). */
export function operationInfo(op: unknown): BatchInfo & { readonly lines?: ResultLine[]; readonly displayName?: string } {
  if (!isObject(op) || typeof op.name !== 'string') throw new ProviderError('malformed', 'the batch operation has no name');
  const meta = isObject(op.metadata) ? op.metadata : {};
  const status = typeof meta.state === 'string' ? meta.state : 'BATCH_STATE_UNSPECIFIED';
  const stats = isObject(meta.batchStats) ? meta.batchStats : {};
  const terminal = geminiTerminal(status);
  return {
    id: op.name, status, terminal, cutShort: terminal && !status.endsWith('SUCCEEDED'),
    completed: count(stats.successfulRequestCount), failed: count(stats.failedRequestCount), total: count(stats.requestCount),
    ...(typeof meta.displayName === 'string' ? { displayName: meta.displayName } : {}),
    ...(terminal ? { lines: inlineLines(op) } : {}),
  };
}

class GeminiBatchClient implements BatchClient {
  private ready: Promise<GoogleGenAI> | undefined;
  private readonly key: string;

  constructor(private readonly model: ModelSpec, private readonly o: BatchApiOptions) {
    this.key = modelKey(model, o.env);
  }

  /** One SDK call through the capturing fetch: the JSON body as received. */
  private async once(what: string, f: (fetch: typeof globalThis.fetch, ai: GoogleGenAI) => Promise<unknown>): Promise<unknown> {
    const ai = await (this.ready ??= geminiClient({ apiKey: this.key, baseURL: this.model.baseUrl, timeoutMs: this.o.timeoutMs }));
    const text = await (await capturedCall({ apiKey: this.key, timeoutMs: this.o.timeoutMs }, (fetch) => f(fetch, ai), Infinity)).text();
    try { return text === '' ? {} : JSON.parse(text) as unknown; } catch { throw new ProviderError('malformed', `the ${what} answer is not JSON`); }
  }

  private retried<T>(what: string, f: () => Promise<T>): Promise<T> {
    return retrying(what, f, { ...this.o, key: this.key });
  }

  /** One SDK call, retried. */
  private call(what: string, f: (fetch: typeof globalThis.fetch, ai: GoogleGenAI) => Promise<unknown>): Promise<unknown> {
    return this.retried(what, () => this.once(what, f));
  }

  upload(): Promise<null> {
    return Promise.resolve(null);
  }

  /**
   * The SDK builds the call from the chunk's requests; the requests sent are the chunk's lines
   * themselves (merged over the SDK's conversion as extraBody), so a batch carries exactly the
   * synchronous bodies, the design's extra fields included.
   */
  async create(c: { text: string; tag: BatchTag }): Promise<BatchInfo> {
    const lines = c.text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { request: Json; metadata: Record<string, string> });
    const src = lines.map(({ request, metadata }) => {
      const p = sdkParams(this.model.model, request);
      return { contents: p.contents, config: p.config, metadata };
    });
    const extraBody = { batch: { inputConfig: { requests: { requests: lines } } } };
    return this.retried('batch create', createOnce(async () => operationInfo(await this.once('batch create', (fetch, ai) => ai.batches.create({
      model: this.model.model, src, config: { displayName: displayName(c.tag), httpOptions: { fetch, extraBody } },
    }))), () => this.findOnce(c.tag)));
  }

  async retrieve(id: string): Promise<BatchInfo> {
    return operationInfo(await this.call(`batch ${id}`, (fetch, ai) => ai.batches.get({ name: id, config: { httpOptions: { fetch } } })));
  }

  async cancel(id: string): Promise<BatchInfo> {
    await this.call(`cancel of batch ${id}`, (fetch, ai) => ai.batches.cancel({ name: id, config: { httpOptions: { fetch } } }));
    return this.retrieve(id);
  }

  find(tag: BatchTag): Promise<BatchInfo | undefined> {
    return this.retried('batch list', () => this.findOnce(tag));
  }

  /** The batch whose displayName is the chunk's, listing page by page. */
  private async findOnce(tag: BatchTag): Promise<BatchInfo | undefined> {
    const want = displayName(tag);
    let pageToken: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const res = await this.once('batch list', (fetch, ai) => ai.batches.list({ config: { pageSize: 100, ...(pageToken ? { pageToken } : {}),
        httpOptions: { fetch } } }));
      const ops = isObject(res) && Array.isArray(res.operations) ? res.operations : [];
      for (const op of ops) {
        const i = operationInfo(op);
        if (i.displayName === want) return i;
      }
      pageToken = isObject(res) && typeof res.nextPageToken === 'string' && res.nextPageToken !== '' ? res.nextPageToken : undefined;
      if (!pageToken) break;
    }
    return undefined;
  }

  async results(b: BatchInfo): Promise<ResultLine[]> {
    const known = (b as { lines?: ResultLine[] }).lines;
    return known ?? ((await this.retrieve(b.id)) as { lines?: ResultLine[] }).lines ?? [];
  }
}

export const GEMINI_BATCH: BatchVendor = {
  // Inline requests: the whole create request under 20 MB; the lines get 19 MB, the rest is margin for its wrapping.
  limits: { maxLines: 50_000, maxBytes: 19 * 1_000_000 },
  customId: batchKey,
  line: (spec) => ({ line: `${JSON.stringify({ request: geminiBody(spec), metadata: { key: batchKey(spec) } })}\n`, endpoint: 'batchGenerateContent' }),
  answer: (spec, body, raw) => ({ read: readGemini(body, raw), request: geminiRecord(geminiBody(spec), spec.model.baseUrl) }),
  isTerminal: geminiTerminal,
  client: (m, o) => new GeminiBatchClient(m, o),
};
