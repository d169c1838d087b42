/**
 * The Files and Batches endpoints through the official SDK, per model (its base URL and key).
 * Every call is retried on transient failures (429, 5xx, timeouts, network) with backoff; what
 * still fails is one line naming the call, never containing the key.
 */
import { toFile, type OpenAI } from 'openai';
import { UserError } from '../../core/errors.js';
import { batchMsg } from '../../core/messages/batch.js';
import { streamFor } from '../../stats/rng.js';
import { toProviderError } from '../providers/errors.js';
import { makeClient } from '../providers/openai-common.js';
import { keyFor, keyOptional } from '../providers/registry.js';
import { backoffDelay, isRetryable } from '../runner/backoff.js';
import { realClock, type Clock } from '../runner/clock.js';
import type { ModelSpec } from '../types.js';

/** What the runner reads of a batch. */
export interface BatchInfo {
  readonly id: string;
  readonly status: string;
  readonly outputFileId?: string;
  readonly errorFileId?: string;
  readonly completed: number;
  readonly failed: number;
  readonly total: number;
  readonly metadata: Readonly<Record<string, string>>;
}

export const TERMINAL = new Set(['completed', 'expired', 'cancelled', 'failed']);

const info = (b: OpenAI.Batches.Batch): BatchInfo => ({
  id: b.id, status: b.status,
  ...(b.output_file_id ? { outputFileId: b.output_file_id } : {}),
  ...(b.error_file_id ? { errorFileId: b.error_file_id } : {}),
  completed: b.request_counts?.completed ?? 0, failed: b.request_counts?.failed ?? 0, total: b.request_counts?.total ?? 0,
  metadata: (b.metadata ?? {}) as Record<string, string>,
});

export interface BatchApiOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  readonly clock?: Clock;
  readonly retries?: number;
}

export class BatchApi {
  private readonly client: OpenAI;
  private readonly key: string;
  private readonly clock: Clock;

  constructor(model: ModelSpec, private readonly o: BatchApiOptions) {
    this.key = keyFor(model, o.env, keyOptional(model));
    this.client = makeClient({ apiKey: this.key, baseURL: model.baseUrl, timeoutMs: o.timeoutMs });
    this.clock = o.clock ?? realClock;
  }

  /** Run one call with retries; a failure that is not transient, or the last one, is a UserError (exit 1). */
  private async call<T>(what: string, f: () => Promise<T>): Promise<T> {
    const rng = streamFor(0, `batch-api\u0000${what}`);
    const retries = this.o.retries ?? 5;
    for (let n = 1; ; n++) {
      try {
        return await f();
      } catch (e) {
        const pe = toProviderError(e, { timedOut: false, outer: new AbortController().signal, timeoutMs: this.o.timeoutMs, nowMs: Date.now(), secrets: [this.key] });
        if (!isRetryable(pe.kind) || n > retries) throw new UserError(batchMsg.apiFailed(what, pe.message), 1);
        await this.clock.sleep(backoffDelay(n, rng, undefined, pe.retryAfterMs));
      }
    }
  }

  upload(text: string, name: string): Promise<string> {
    return this.call('file upload', async () => {
      const f = await this.client.files.create({ file: await toFile(Buffer.from(text, 'utf8'), name, { type: 'application/jsonl' }), purpose: 'batch' });
      return f.id;
    });
  }

  create(fileId: string, endpoint: OpenAI.Batches.BatchCreateParams['endpoint'], metadata: Record<string, string>): Promise<BatchInfo> {
    return this.call('batch create', async () => info(await this.client.batches.create({
      input_file_id: fileId, endpoint, completion_window: '24h', metadata,
    })));
  }

  retrieve(id: string): Promise<BatchInfo> {
    return this.call(`batch ${id}`, async () => info(await this.client.batches.retrieve(id)));
  }

  cancel(id: string): Promise<BatchInfo> {
    return this.call(`cancel of batch ${id}`, async () => info(await this.client.batches.cancel(id)));
  }

  /** The first of the account's batches whose metadata has every given pair (newest first), if any. */
  find(metadata: Readonly<Record<string, string>>): Promise<BatchInfo | undefined> {
    return this.call('batch list', async () => {
      for await (const b of this.client.batches.list({ limit: 100 })) {
        const m = (b.metadata ?? {}) as Record<string, string>;
        if (Object.entries(metadata).every(([k, v]) => m[k] === v)) return info(b);
      }
      return undefined;
    });
  }

  /** A file's text (output and error files). */
  download(fileId: string): Promise<string> {
    return this.call(`download of ${fileId}`, async () => (await this.client.files.content(fileId)).text());
  }
}
