/**
 * The OpenAI Batch API (Files and Batches endpoints) through the official SDK, per model (its base
 * URL and key): a chunk's JSONL file is uploaded (purpose batch), a batch is created from it with
 * the store's tag as metadata (so a killed run finds it again by listing), and the output and
 * error files of a finished batch are read line by line: `{custom_id, response: {status_code,
 * body}, error}`.
 */
import type { OpenAI } from 'openai';
import { isObject, lazyOpenAIClient, type Json, type OpenAIClient } from '../providers/wire.js';
import { isWireProvider, readWire, wireRequest } from '../providers/openai-wire.js';
import { keyFor, keyOptional } from '../providers/registry.js';
import type { ModelSpec, TrialSpec } from '../types.js';
import { batchKey } from './keys.js';
import { createOnce, retrying, type BatchApiOptions, type BatchClient, type BatchInfo, type BatchTag, type BatchVendor, type ResultLine } from './vendor.js';

export const OPENAI_TERMINAL = new Set(['completed', 'expired', 'cancelled', 'failed']);

const info = (b: OpenAI.Batches.Batch): BatchInfo => ({
  id: b.id, status: b.status, terminal: OPENAI_TERMINAL.has(b.status), cutShort: OPENAI_TERMINAL.has(b.status) && b.status !== 'completed',
  ...(b.output_file_id ? { outputFileId: b.output_file_id } : {}),
  ...(b.error_file_id ? { errorFileId: b.error_file_id } : {}),
  completed: b.request_counts?.completed ?? 0, failed: b.request_counts?.failed ?? 0, total: b.request_counts?.total ?? 0,
});

const metadataOf = (t: BatchTag) => ({ samegame_store: t.store, samegame_run: t.run, samegame_chunk: t.chunk });

/** The body of a successful output line, or undefined. */
function answerOf(line: Json): Json | undefined {
  const res = line.response;
  if (line.error !== null && line.error !== undefined) return undefined;
  if (!isObject(res) || res.status_code !== 200 || !isObject(res.body)) return undefined;
  return res.body;
}

/** The lines of output and error files. */
export function openaiLines(files: readonly string[]): ResultLine[] {
  const out: ResultLine[] = [];
  for (const text of files) {
    for (const l of text.split('\n')) {
      if (l.trim() === '') continue;
      let line: unknown;
      try { line = JSON.parse(l); } catch { continue; }
      if (!isObject(line) || typeof line.custom_id !== 'string') continue;
      const body = answerOf(line);
      out.push({ customId: line.custom_id, ...(body ? { body } : {}) });
    }
  }
  return out;
}

class OpenAIBatchClient implements BatchClient {
  private readonly connect: () => Promise<OpenAIClient>;
  private readonly key: string;

  constructor(model: ModelSpec, private readonly o: BatchApiOptions) {
    this.key = keyFor(model, o.env, keyOptional(model));
    this.connect = lazyOpenAIClient({ apiKey: this.key, baseURL: model.baseUrl, timeoutMs: o.timeoutMs });
  }

  private async call<T>(what: string, f: (c: OpenAIClient) => Promise<T>): Promise<T> {
    const c = await this.connect();
    return retrying(what, () => f(c), { ...this.o, key: this.key, sdk: c.errors });
  }

  upload(text: string, name: string): Promise<string> {
    return this.call('file upload', async ({ client, toFile }) => {
      const f = await client.files.create({ file: await toFile(Buffer.from(text, 'utf8'), name, { type: 'application/jsonl' }), purpose: 'batch' });
      return f.id;
    });
  }

  create(c: { fileId: string | null; endpoint: string; tag: BatchTag }): Promise<BatchInfo> {
    return this.call('batch create', createOnce(async () => info(await (await this.connect()).client.batches.create({
      input_file_id: c.fileId!, endpoint: c.endpoint as OpenAI.Batches.BatchCreateParams['endpoint'], completion_window: '24h', metadata: metadataOf(c.tag),
    })), () => this.findOnce(c.tag)));
  }

  retrieve(id: string): Promise<BatchInfo> {
    return this.call(`batch ${id}`, async ({ client }) => info(await client.batches.retrieve(id)));
  }

  cancel(id: string): Promise<BatchInfo> {
    return this.call(`cancel of batch ${id}`, async ({ client }) => info(await client.batches.cancel(id)));
  }

  /** The first of the account's batches whose metadata is the chunk's tag (newest first), if any. */
  private async findOnce(tag: BatchTag): Promise<BatchInfo | undefined> {
    const want = metadataOf(tag);
    for await (const b of (await this.connect()).client.batches.list({ limit: 100 })) {
      const m = (b.metadata ?? {}) as Record<string, string>;
      if (Object.entries(want).every(([k, v]) => m[k] === v)) return info(b);
    }
    return undefined;
  }

  find(tag: BatchTag): Promise<BatchInfo | undefined> {
    return this.call('batch list', () => this.findOnce(tag));
  }

  private download(fileId: string): Promise<string> {
    return this.call(`download of ${fileId}`, async ({ client }) => (await client.files.content(fileId)).text());
  }

  async results(b: BatchInfo): Promise<ResultLine[]> {
    const files: string[] = [];
    if (b.outputFileId) files.push(await this.download(b.outputFileId));
    if (b.errorFileId) files.push(await this.download(b.errorFileId));
    return openaiLines(files);
  }
}

const wireOf = (spec: TrialSpec) => {
  const p = spec.model.provider;
  if (!isWireProvider(p)) throw new Error(`provider ${p} is not an OpenAI-wire provider`);
  return p;
};

export const OPENAI_BATCH: BatchVendor = {
  // 50,000 requests and 200 MB per input file.
  limits: { maxLines: 50_000, maxBytes: 200 * 1_000_000 },
  // A line's custom_id: its batch key (keys.ts).
  customId: batchKey,
  line(spec) {
    const w = wireRequest(spec, wireOf(spec), spec.model.baseUrl);
    return { line: `${JSON.stringify({ custom_id: batchKey(spec), method: 'POST', url: w.url, body: w.body })}\n`, endpoint: w.url };
  },
  answer(spec, body, raw) {
    const p = wireOf(spec);
    return { read: readWire(p, body, raw), request: wireRequest(spec, p, spec.model.baseUrl).record };
  },
  isTerminal: (s) => OPENAI_TERMINAL.has(s),
  client: (m, o) => new OpenAIBatchClient(m, o),
};
