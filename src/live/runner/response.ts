/**
 * What a provider answers, checked before anything of it is used or stored: every provider —
 * built-in or plug-in — goes through this one check. A response that is not an object, whose
 * `text`, `raw` or `modelSnapshot` is not a string, whose `usage` is not two non-negative
 * integers, whose `request` is not an object or whose `firstTokenTopLogprobs` is not a list is a
 * failed attempt (`malformed`, retried like any malformed body), never a TypeError that stops the run.
 * The candidates' values are judged by the scoring (a non-finite log-probability makes the trial invalid).
 */
import { ProviderError, type ProviderResponse } from '../types.js';
import { MAX_WAIT_MS } from './backoff.js';

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);
const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function problem(r: Record<string, unknown>): string | undefined {
  for (const f of ['text', 'raw'] as const) if (typeof r[f] !== 'string') return `"${f}" is ${kind(r[f])}, not a string`;
  if (r.modelSnapshot !== undefined && typeof r.modelSnapshot !== 'string') return `"modelSnapshot" is ${kind(r.modelSnapshot)}, not a string`;
  if (r.request === null || typeof r.request !== 'object' || Array.isArray(r.request)) return `"request" is ${kind(r.request)}, not an object`;
  if (r.usage !== undefined) {
    const u = r.usage as Record<string, unknown> | null;
    if (u === null || typeof u !== 'object' || !isCount(u.inputTokens) || !isCount(u.outputTokens)) {
      return '"usage" is not { inputTokens, outputTokens } with two non-negative integers';
    }
  }
  if (r.firstTokenTopLogprobs !== undefined && !Array.isArray(r.firstTokenTopLogprobs)) return `"firstTokenTopLogprobs" is ${kind(r.firstTokenTopLogprobs)}, not a list`;
  try {
    JSON.stringify(r.request);
  } catch (e) {
    return `"request" cannot be stored as JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  return undefined;
}

/** The response when it has the documented shape; else a `malformed` ProviderError saying what is wrong. */
export function checkResponse(res: unknown): ProviderResponse {
  if (res === null || typeof res !== 'object' || Array.isArray(res)) throw new ProviderError('malformed', `the provider returned ${kind(res)}, not a response object`);
  const r = res as Record<string, unknown>;
  const why = problem(r);
  if (why !== undefined) throw new ProviderError('malformed', `the provider's response: ${why}`, undefined, undefined, typeof r.raw === 'string' ? r.raw : undefined);
  return res as ProviderResponse;
}

/** A provider's retryAfterMs as a wait: a non-negative number, at most MAX_WAIT_MS (2^31 − 1 ms); anything else is no hint. */
export function retryAfterOf(v: unknown): number | undefined {
  if (typeof v !== 'number' || Number.isNaN(v) || v < 0) return undefined;
  return Math.min(v, MAX_WAIT_MS);
}
