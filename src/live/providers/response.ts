/**
 * What a provider answers, checked before anything of it is used or stored: every provider —
 * built-in or plug-in — and every batch vendor's answer goes through this one check. A response
 * that is not an object, whose `text`, `raw` or `modelSnapshot` is not a string, whose `usage` is
 * not two non-negative integers, whose `request` is not an object or whose `firstTokenTopLogprobs`
 * is not a list breaks the provider contract (README "Write a provider"): a `ContractError`, which
 * no retry can mend — the run stops at the first one, keeping what it stored. A body larger than
 * MAX_RESPONSE_BYTES is a failed attempt (`malformed`), never stored. The candidates' values are
 * judged by the scoring (a log-probability that is not a number, NaN, +∞ or positive makes the trial invalid).
 */
import { ProviderError, type ProviderResponse } from '../types.js';

/** The largest response body a trial stores (4 MiB): a larger one is a failed attempt. */
export const MAX_RESPONSE_BYTES = 4 * 2 ** 20;

/** A response that breaks the provider contract: what is wrong, by field. Not transient, never retried. */
export class ContractError extends Error {
  constructor(readonly what: string) {
    super(what);
    this.name = 'ContractError';
  }
}

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
  if (r.firstTokenTopLogprobs !== undefined && !Array.isArray(
    r.firstTokenTopLogprobs)) return `"firstTokenTopLogprobs" is ${kind(r.firstTokenTopLogprobs)}, not a list`;
  try {
    JSON.stringify(r.request);
  } catch (e) {
    return `"request" cannot be stored as JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  return undefined;
}

/**
 * The response when it has the documented shape and a body within MAX_RESPONSE_BYTES; a
 * ContractError saying what is wrong, or a `malformed` ProviderError for a body too large.
 */
export function checkResponse(res: unknown): ProviderResponse {
  if (res === null || typeof res !== 'object' || Array.isArray(res)) throw new ContractError(`the response is ${kind(res)}, not a response object`);
  const r = res as Record<string, unknown>;
  const why = problem(r);
  if (why !== undefined) throw new ContractError(why);
  tooLarge(Buffer.byteLength(r.raw as string));
  return res as ProviderResponse;
}

/** A body of `bytes` bytes: a `malformed` failed attempt above MAX_RESPONSE_BYTES. */
export function tooLarge(bytes: number): void {
  if (bytes > MAX_RESPONSE_BYTES) throw new ProviderError('malformed',
    `the response body is larger than ${MAX_RESPONSE_BYTES / 2 ** 20} MiB (${bytes.toLocaleString('en-US')} bytes): not stored`);
}
