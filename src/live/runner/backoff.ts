/**
 * Retry delays: exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff
 * and Jitter", 2015): delay = U(0, min(cap, base·2^(attempt−1))), with the uniform drawn from a
 * seeded stream per trial, so a schedule is reproducible. A server's Retry-After is a floor:
 * the wait is never shorter than what the server asked for.
 */
import type { RandomSource } from '../../stats/rng.js';
import type { ProviderErrorKind } from '../types.js';

export interface BackoffSettings {
  readonly baseMs: number;
  readonly capMs: number;
}

export const DEFAULT_BACKOFF: BackoffSettings = { baseMs: 500, capMs: 60_000 };

/** Kinds worth another attempt: the server or the path may recover; a client error will not. */
export function isRetryable(kind: ProviderErrorKind): boolean {
  return kind === 'rate_limit' || kind === 'server' || kind === 'timeout' || kind === 'network' || kind === 'malformed';
}

/** The wait before retry number `attempt` (1 = the first retry). */
export function backoffDelay(attempt: number, rng: RandomSource, s: BackoffSettings = DEFAULT_BACKOFF, retryAfterMs?: number): number {
  const ceiling = Math.min(s.capMs, s.baseMs * 2 ** (attempt - 1));
  const jittered = rng.next() * ceiling;
  // A timer holds at most 2^31 − 1 ms (Node turns a longer one into 1 ms with a warning).
  return Math.min(retryAfterMs === undefined ? jittered : Math.max(retryAfterMs, jittered), MAX_WAIT_MS);
}

/** The longest wait a server's retry hint may ask for unless told otherwise (`run --max-wait`, in seconds: 60). */
export const DEFAULT_MAX_HINT_MS = 60_000;

/**
 * A retry hint (Retry-After, Gemini's retryDelay, a plug-in's retryAfterMs) as a wait: a
 * non-negative number up to the ceiling. A longer one is `tooLong` — the attempt stays a failed
 * attempt and the ordinary backoff applies —; anything else (NaN, negative, not a number) is no hint.
 */
export function retryHint(v: unknown, ceilingMs = DEFAULT_MAX_HINT_MS): { readonly ms?: number; readonly tooLong?: number } {
  if (typeof v !== 'number' || Number.isNaN(v) || v < 0) return {};
  return v > ceilingMs ? { tooLong: v } : { ms: v };
}

/** The longest wait a timer can hold: 2^31 − 1 ms (about 24.8 days). */
export const MAX_WAIT_MS = 2 ** 31 - 1;
