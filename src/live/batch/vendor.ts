/**
 * What a vendor's batch service must offer a batch run (run.ts): the line of one trial in a
 * chunk file, a client for the service's calls, and the reader of an answered line. The run's
 * state machine is the same for every vendor — prepared → uploaded → created → collected, each
 * step committed before the next call — so each vendor only says how its calls are made:
 * OpenAI uploads the chunk's file and creates a batch from it; Anthropic and Gemini send the
 * chunk's requests inline with the create call (their `uploaded` step makes no call: it commits
 * that a create call may follow, which is what a resumed run must know).
 */
import { UserError } from '../../core/errors.js';
import { streamFor } from '../../stats/rng.js';
import { toProviderError, type SdkErrorClasses } from '../providers/errors.js';
import type { Json } from '../providers/wire.js';
import { backoffDelay, isRetryable, retryHint } from '../runner/backoff.js';
import { realClock, type Clock } from '../runner/clock.js';
import type { ModelSpec, ProviderResponse, TrialSpec } from '../types.js';
import { liveBatchMsg } from './messages.js';

/** What the run reads of a batch. */
export interface BatchInfo {
  readonly id: string;
  /** The vendor's own status word (shown by `samegame batches`). */
  readonly status: string;
  /** Finished: its results can be read, nothing more will be answered. */
  readonly terminal: boolean;
  /** Finished without answering every line it could (expired, cancelled, failed). */
  readonly cutShort: boolean;
  readonly completed: number;
  readonly failed: number;
  readonly total: number;
  /** OpenAI: the output and error files. */
  readonly outputFileId?: string;
  readonly errorFileId?: string;
}

/** One line of a finished batch: its custom id, and the answer body when it succeeded. */
export interface ResultLine {
  readonly customId: string;
  readonly body?: Json;
}

/** Names a chunk's batch on the server, so a run killed after the create call can find it. */
export interface BatchTag {
  readonly store: string;
  readonly run: string;
  readonly chunk: string;
}

export interface FindHint {
  /** When the chunk was committed as about to be created (ISO time). */
  readonly since: string;
  readonly lines: number;
  /** Batch ids other chunks of the store already hold. */
  readonly claimed: ReadonlySet<string>;
}

export interface BatchClient {
  /** Upload the chunk's file, for a vendor that creates batches from files (its id), else null without a call. */
  upload(text: string, name: string): Promise<string | null>;
  /**
   * Create the chunk's batch. An attempt after a failed one first looks for the batch the failed
   * attempt may have created (its answer lost), so a chunk never gets two batches.
   */
  create(c: { readonly text: string; readonly fileId: string | null; readonly endpoint: string; readonly tag: BatchTag;
    readonly hint: FindHint }): Promise<BatchInfo>;
  /** The batch a killed run may have created for this chunk, if the server has one. */
  find(tag: BatchTag, hint: FindHint): Promise<BatchInfo | undefined>;
  retrieve(id: string): Promise<BatchInfo>;
  cancel(id: string): Promise<BatchInfo>;
  /** Every line of a finished batch (answered or not). */
  results(b: BatchInfo): Promise<ResultLine[]>;
}

export interface BatchApiOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  readonly clock?: Clock;
  readonly retries?: number;
  /** The longest wait a retry hint may ask for (default DEFAULT_MAX_HINT_MS). */
  readonly maxWaitMs?: number;
}

export interface BatchLimits {
  readonly maxLines: number;
  readonly maxBytes: number;
}

export interface BatchVendor {
  /** The service's limits per batch. */
  readonly limits: BatchLimits;
  /** The id a trial's line carries (the trial key, or an encoding of it the service accepts). */
  customId(spec: TrialSpec): string;
  /** The JSONL line of one trial (with its newline) and the endpoint recorded with its chunk. */
  line(spec: TrialSpec): { readonly line: string; readonly endpoint: string };
  /** An answer body read as the synchronous provider reads it, and the request record it stores. */
  answer(spec: TrialSpec, body: Json, raw: string): { readonly read: Omit<ProviderResponse, 'raw' | 'request'>; readonly request: Json };
  /** Whether a stored status is final (for `batches --cancel`). */
  isTerminal(status: string): boolean;
  client(model: ModelSpec, o: BatchApiOptions): BatchClient;
}

/** A create call whose later attempts first look for what an earlier one may have created. */
export function createOnce(create: () => Promise<BatchInfo>, find: () => Promise<BatchInfo | undefined>): () => Promise<BatchInfo> {
  let attempted = false;
  return async () => {
    if (attempted) {
      const found = await find();
      if (found) return found;
    }
    attempted = true;
    return create();
  };
}

/**
 * Run one batch-service call with retries on transient failures (429, 5xx, timeouts, network);
 * a failure that is not transient, or the last one, is a UserError (exit 1) never holding the key.
 */
export async function retrying<T>(what: string, f: () => Promise<T>, o: BatchApiOptions & { readonly key: string;
  readonly sdk?: SdkErrorClasses }): Promise<T> {
  const rng = streamFor(0, `batch-api\u0000${what}`);
  const clock = o.clock ?? realClock;
  const retries = o.retries ?? 5;
  for (let n = 1; ; n++) {
    try {
      return await f();
    } catch (e) {
      const pe = toProviderError(e, { timedOut: false, outer: new AbortController().signal, timeoutMs: o.timeoutMs, nowMs: Date.now(), secrets: [o.key],
        sdk: o.sdk });
      if (!isRetryable(pe.kind) || n > retries) throw new UserError(liveBatchMsg.apiFailed(what, pe.message), 1);
      // One ceiling for every retry hint (runner/backoff.ts): a longer hint leaves the ordinary backoff.
      await clock.sleep(backoffDelay(n, rng, undefined, retryHint(pe.retryAfterMs, o.maxWaitMs).ms));
    }
  }
}
