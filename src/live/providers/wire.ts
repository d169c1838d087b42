/**
 * What every provider's wire code shares (OpenAI chat and responses, Anthropic, Gemini, and the
 * batch vendors): a raw call with a per-call timeout that also covers reading the body, the body
 * read by us so the stored response is the bytes received and a malformed or truncated body is a
 * `malformed` failure rather than an unclassified exception; JSON helpers, the trial header and
 * seed, the public base URL; and the OpenAI SDK client of the OpenAI-wire providers (its own
 * retries off — the runner retries, with Retry-After and jitter).
 */
import type OpenAI from 'openai';
import type { TopLogprob } from '../types.js';
import { ProviderError } from '../types.js';
import { redact, toProviderError, type SdkErrorClasses } from './errors.js';
import { onAbort } from '../abort.js';
import { MAX_RESPONSE_BYTES, tooLarge } from './response.js';

export interface OpenAIWireOptions {
  readonly apiKey: string;
  /** Server root, e.g. http://localhost:8000/v1; the SDK's default (api.openai.com) when absent. */
  readonly baseURL?: string;
  readonly timeoutMs: number;
  /** For tests and proxies; the global fetch when absent. */
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
}

type OpenAISdk = typeof import('openai');
let loading: Promise<OpenAISdk> | undefined;
/** The OpenAI SDK, imported at the first call: a command (or a simulated run) that calls nothing never loads it. */
const openaiSdk = (): Promise<OpenAISdk> => (loading ??= import('openai'));

export interface OpenAIClient {
  readonly client: OpenAI;
  /** The SDK's error classes, for mapping its failures to ProviderError kinds. */
  readonly errors: SdkErrorClasses;
  readonly toFile: OpenAISdk['toFile'];
}

/** An SDK client with its own retries off (the runner retries), and the SDK's error classes. */
export async function openaiClient(o: OpenAIWireOptions): Promise<OpenAIClient> {
  const m = await openaiSdk();
  const client = new m.default({
    apiKey: o.apiKey,
    baseURL: o.baseURL,
    maxRetries: 0,
    // Backstop only: our own timer (below) fires first and also covers the body.
    timeout: o.timeoutMs + 5_000,
    logLevel: 'off',
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
  const errors: SdkErrorClasses = {
    api: m.APIError, connection: m.APIConnectionError, connectionTimeout: m.APIConnectionTimeoutError, userAbort: m.APIUserAbortError,
  };
  return { client, errors, toFile: m.toFile };
}

/** A provider's client, made at its first call and shared by the calls after. */
export function lazyOpenAIClient(o: OpenAIWireOptions): () => Promise<OpenAIClient> {
  let c: Promise<OpenAIClient> | undefined;
  return () => (c ??= openaiClient(o));
}

/** Whether a base URL is OpenAI's own endpoint (the SDK's default when absent). */
export function isOfficialEndpoint(baseURL: string | undefined): boolean {
  return baseURL === undefined || /^https:\/\/api\.openai\.com(\/|$)/.test(baseURL);
}

/** The base URL as recorded with a trial: without any user:password part. */
export function publicBaseUrl(baseURL: string | undefined, official = 'https://api.openai.com/v1'): string {
  if (!baseURL) return official;
  try {
    const u = new URL(baseURL);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return baseURL;
  }
}

export interface RawResult {
  readonly raw: string;
  readonly json: unknown;
}

/**
 * Run one SDK call returning the raw Response, read its body and parse it, all under one timer.
 * Every failure leaves as a ProviderError.
 */
/**
 * A response body read up to `max` bytes (MAX_RESPONSE_BYTES for a trial's answer): a body that
 * says or turns out to be larger is a failed attempt, the rest never read.
 */
export async function boundedText(res: Response, max = MAX_RESPONSE_BYTES): Promise<string> {
  const declared = res.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > max) {
    await res.body?.cancel().catch(() => {});
    tooLarge(Number(declared));
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) { await reader.cancel().catch(() => {}); tooLarge(total); }
    parts.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(parts));
}

export async function rawCall(
  start: (signal: AbortSignal) => Promise<Response>,
  outer: AbortSignal, o: Pick<OpenAIWireOptions, 'apiKey' | 'timeoutMs' | 'now'>, sdk?: SdkErrorClasses,
): Promise<RawResult> {
  const secrets = [o.apiKey];
  if (outer.aborted) throw new ProviderError('aborted', 'the call was aborted');
  const ctl = new AbortController();
  let timedOut = false;
  const unlink = onAbort(outer, () => ctl.abort()); // one listener on the shared signal, whatever the concurrency
  const timer = setTimeout(() => { timedOut = true; ctl.abort(); }, o.timeoutMs);
  try {
    const res = await start(ctl.signal);
    let raw: string;
    try {
      raw = await boundedText(res);
    } catch (e) {
      if (timedOut || outer.aborted || e instanceof ProviderError) throw e;
      throw new ProviderError('malformed', `the response body ended early (${e instanceof Error ? e.message : String(e)})`, res.status);
    }
    raw = redact(raw, secrets);
    try {
      return { raw, json: JSON.parse(raw) as unknown };
    } catch {
      throw new ProviderError('malformed', `the response body is not valid JSON (${raw.length} characters)`, res.status, undefined, raw);
    }
  } catch (e) {
    throw toProviderError(e, { timedOut, outer, timeoutMs: o.timeoutMs, nowMs: (o.now ?? Date.now)(), secrets, sdk });
  } finally {
    clearTimeout(timer);
    unlink();
  }
}

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function malformed(what: string, raw: string): ProviderError {
  return new ProviderError('malformed', `unexpected response shape: ${what}`, undefined, undefined, raw);
}

/**
 * The top-k alternatives of one output position, in the shape both wire formats share:
 * { token, logprob, top_logprobs: [{ token, logprob }] }. When the server returned no
 * alternatives (top_logprobs = 0), the sampled token itself is the only candidate.
 */
export function topOf(position: unknown): TopLogprob[] | undefined {
  if (!isObject(position)) return undefined;
  const alts = Array.isArray(position.top_logprobs) ? position.top_logprobs : [];
  const out: TopLogprob[] = [];
  // Every alternative as written: the scoring judges each (scoring/first-token.ts), none is left out here.
  for (const a of alts) out.push((isObject(a) ? { token: a.token, logprob: a.logprob } : { token: undefined, logprob: undefined }) as TopLogprob);
  if (out.length === 0 && typeof position.token === 'string' && typeof position.logprob === 'number') {
    out.push({ token: position.token, logprob: position.logprob });
  }
  return out.length > 0 ? out : undefined;
}

/** A token count as an API writes it: a non-negative whole number, else unknown (the usage is then left out, never a broken response). */
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined);

/** A header naming the trial, so servers (and the tests' loopback server) can count requests per trial. */
export function trialHeader(spec: { model: { id: string }; game: string; framing: string; rep: number }): Record<string, string> {
  return { 'x-samegame-trial': encodeURIComponent(`${spec.model.id}|${spec.game}|${spec.framing}|${spec.rep}`) };
}

/**
 * The sampling seed sent for one trial. Repeated samples of one prompt are distinct trials
 *, so a design seed is offset by the rep index: the same seed for every rep would make
 * a seeded server return one sample rep times.
 */
export function trialSeed(seed: number | undefined, rep: number): number | undefined {
  return seed === undefined ? undefined : seed + rep;
}

/** Extra body fields a design may pass through (ModelSpec.options.extraBody). */
export function extraBody(options: Readonly<Record<string, unknown>>): Json {
  const e = options.extraBody;
  return isObject(e) ? e : {};
}
