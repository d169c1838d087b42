/**
 * Anthropic Message Batches through the official SDK: POST /v1/messages/batches with the chunk's
 * requests inline (`{custom_id, params}`, params exactly the synchronous Messages body), polled by
 * `processing_status` (in_progress → canceling → ended), results read from the JSONL at
 * `results_url`: each line `{custom_id, result: {type: succeeded | errored | canceled | expired}}`;
 * only `succeeded` lines carry a message, the others stay pending and are sent again.
 *
 * custom_id must match ^[a-zA-Z0-9_-]{1,64}$, which a trial key (model|game|framing|rep) does
 * not: it is the trial key's SHA-256 in base64url (43 characters), mapped back through the chunk.
 * A batch carries no metadata, so a run killed between the create call and its commit finds its
 * batch by what it has: created after the chunk was committed as about to be created, with the
 * chunk's number of requests, and held by no other chunk of the store.
 */
import { createHash } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import { anthropicBody, anthropicClient, anthropicRecord, readAnthropic, type AnthropicClient } from '../providers/anthropic.js';
import { isObject } from '../providers/wire.js';
import { modelKey } from '../providers/registry.js';
import type { ModelSpec } from '../types.js';
import { batchKey } from './keys.js';
import { createOnce, retrying, type BatchApiOptions, type BatchClient, type BatchInfo, type BatchVendor, type FindHint, type ResultLine } from './vendor.js';

/** Clock difference tolerated between this machine and the server when finding a batch by its creation time. */
const SKEW_MS = 5 * 60_000;

function info(b: Anthropic.Messages.MessageBatch): BatchInfo {
  const r = b.request_counts;
  const ended = b.processing_status === 'ended';
  return {
    id: b.id, status: b.processing_status, terminal: ended, cutShort: ended && r.canceled + r.expired > 0,
    completed: r.succeeded, failed: r.errored + r.canceled + r.expired,
    total: r.processing + r.succeeded + r.errored + r.canceled + r.expired,
  };
}

class AnthropicBatchClient implements BatchClient {
  private ready: Promise<AnthropicClient> | undefined;
  private readonly key: string;

  constructor(private readonly model: ModelSpec, private readonly o: BatchApiOptions) {
    this.key = modelKey(model, o.env);
  }

  private async call<T>(what: string, f: (client: Anthropic) => Promise<T>): Promise<T> {
    const { client, errors } = await (this.ready ??= anthropicClient({ apiKey: this.key, baseURL: this.model.baseUrl, timeoutMs: this.o.timeoutMs }));
    return retrying(what, () => f(client), { ...this.o, key: this.key, sdk: errors });
  }

  upload(): Promise<null> {
    return Promise.resolve(null);
  }

  create(c: { text: string; hint: FindHint }): Promise<BatchInfo> {
    const requests = c.text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Anthropic.Messages.BatchCreateParams.Request);
    let attempt: (() => Promise<BatchInfo>) | undefined; // one closure over every attempt: later ones look first
    return this.call('batch create', (client) => (attempt ??= createOnce(async () => info(await client.messages.batches.create({ requests })),
      () => this.findOnce(client, c.hint)))());
  }

  retrieve(id: string): Promise<BatchInfo> {
    return this.call(`batch ${id}`, async (client) => info(await client.messages.batches.retrieve(id)));
  }

  cancel(id: string): Promise<BatchInfo> {
    return this.call(`cancel of batch ${id}`, async (client) => info(await client.messages.batches.cancel(id)));
  }

  /** The earliest batch created since the chunk was about to be created, of its size, that no other chunk holds. */
  private async findOnce(client: Anthropic, hint: FindHint): Promise<BatchInfo | undefined> {
    const from = Date.parse(hint.since) - SKEW_MS;
    let found: BatchInfo | undefined;
    // Newest first: stop at the first batch older than the window.
    for await (const b of client.messages.batches.list({ limit: 100 })) {
      if (Date.parse(b.created_at) < from) break;
      const i = info(b);
      if (i.total === hint.lines && !hint.claimed.has(b.id)) found = i;
    }
    return found;
  }

  find(_tag: unknown, hint: FindHint): Promise<BatchInfo | undefined> {
    return this.call('batch list', (client) => this.findOnce(client, hint));
  }

  results(b: BatchInfo): Promise<ResultLine[]> {
    return this.call(`results of batch ${b.id}`, async (client) => {
      const out: ResultLine[] = [];
      for await (const line of await client.messages.batches.results(b.id)) {
        const r = line.result;
        out.push({ customId: line.custom_id, ...(r.type === 'succeeded' && isObject(r.message) ? { body: r.message as unknown as Record<string,
          unknown> } : {}) });
      }
      return out;
    });
  }
}

/** A batch key (keys.ts) as a custom_id the Message Batches API accepts. */
export const anthropicCustomId = (key: string): string => createHash('sha256').update(key).digest('base64url');

export const ANTHROPIC_BATCH: BatchVendor = {
  // 100,000 requests or 256 MB per batch.
  limits: { maxLines: 100_000, maxBytes: 256 * 1_000_000 },
  customId: (spec) => anthropicCustomId(batchKey(spec)),
  line: (spec) => ({ line: `${JSON.stringify({ custom_id: anthropicCustomId(batchKey(spec)), params: anthropicBody(spec) })}\n`,
    endpoint: '/v1/messages/batches' }),
  answer: (spec, body, raw) => ({ read: readAnthropic(body, raw), request: anthropicRecord(anthropicBody(spec), spec.model.baseUrl) }),
  isTerminal: (s) => s === 'ended',
  client: (m, o) => new AnthropicBatchClient(m, o),
};
