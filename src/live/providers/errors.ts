/**
 * HTTP and SDK failures → ProviderError kinds (docs/architecture.md): the runner decides
 * from the kind alone whether to retry, so every provider maps its failures the same way.
 *   429 → rate_limit (with Retry-After), 5xx → server, 408 and timeouts → timeout,
 *   connection failures → network, unreadable or truncated bodies → malformed,
 *   other 4xx → client (not retried), the caller's own abort → aborted.
 */
import { ProviderError } from '../types.js';

/** The error classes of a Stainless-generated SDK (openai, @anthropic-ai/sdk share the layout). */
export interface SdkErrorClasses {
  readonly api: abstract new (...a: never[]) => Error & { status?: number; headers?: unknown; error?: unknown };
  readonly connection: abstract new (...a: never[]) => Error;
  readonly connectionTimeout: abstract new (...a: never[]) => Error;
  readonly userAbort: abstract new (...a: never[]) => Error;
}

/**
 * Retry-After (RFC 9110 §10.2.3) is either delay-seconds or an HTTP-date; OpenAI also sends the
 * non-standard retry-after-ms. Returns milliseconds to wait, or undefined when absent or unparsable.
 */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, nowMs: number): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.max(0, Number(ms));
  const v = headers.get('retry-after');
  if (v === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(v)) return Math.max(0, Number(v) * 1000);
  const date = Date.parse(v);
  return Number.isFinite(date) ? Math.max(0, date - nowMs) : undefined;
}

/** Replace every occurrence of a secret by a marker (defence in depth: keys never reach a store or log). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

/** A ProviderError from a status code (for servers reached without the SDK, and tests). */
export function errorForStatus(status: number, message: string, retryAfterMs?: number, raw?: string): ProviderError {
  if (status === 429) return new ProviderError('rate_limit', message, status, retryAfterMs, raw);
  if (status === 408) return new ProviderError('timeout', message, status, retryAfterMs, raw);
  if (status >= 500) return new ProviderError('server', message, status, retryAfterMs, raw);
  return new ProviderError('client', message, status, undefined, raw);
}

export interface CallState {
  /** True when our own per-call timer fired (not the caller's signal). */
  readonly timedOut: boolean;
  /** The caller's signal (runner: a hard abort on the second Ctrl-C). */
  readonly outer: AbortSignal;
  readonly timeoutMs: number;
  readonly nowMs: number;
  readonly secrets: readonly string[];
  /** The SDK whose errors these are (none when the call went through no SDK: only the timer, the abort and the cause are read). */
  readonly sdk?: SdkErrorClasses;
}

/** An error class nothing is an instance of: the classes of a call made through no SDK. */
abstract class NoSdkError extends Error {}
const NO_SDK: SdkErrorClasses = { api: NoSdkError, connection: NoSdkError, connectionTimeout: NoSdkError, userAbort: NoSdkError };

/** Map whatever a call threw to a ProviderError. */
export function toProviderError(e: unknown, st: CallState): ProviderError {
  if (e instanceof ProviderError) return e;
  const sdk = st.sdk ?? NO_SDK;
  const clean = (s: string) => redact(s, st.secrets);
  if (st.timedOut) return new ProviderError('timeout', `no complete response within ${st.timeoutMs} ms`);
  if (st.outer.aborted || e instanceof sdk.userAbort) return new ProviderError('aborted', 'the call was aborted');
  if (e instanceof sdk.connectionTimeout) return new ProviderError('timeout', `no response within ${st.timeoutMs} ms`);
  if (e instanceof sdk.connection) return new ProviderError('network', clean(`connection failed: ${causeText(e)}`));
  if (e instanceof sdk.api && typeof e.status === 'number') {
    const raw = e.error === undefined ? undefined : clean(JSON.stringify(e.error));
    const retryAfter = parseRetryAfter(e.headers as Headers | undefined, st.nowMs);
    return errorForStatus(e.status, clean(e.message), retryAfter, raw);
  }
  return new ProviderError('network', clean(`request failed: ${causeText(e)}`));
}

export function causeText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as { cause?: unknown }).cause;
  return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
}
