/**
 * One OpenAI-wire request of a trial, as the synchronous providers send it and as a Batch API
 * input line carries it: the same body builder (responsesBody, chatBody), the same reader of the
 * answer (readResponses, readChat) and the same request record.
 */
import type { ProviderResponse, TrialSpec } from '../types.js';
import { chatBody, readChat } from './openai-chat.js';
import { readResponses, responsesBody } from './openai-responses.js';
import { isOfficialEndpoint, publicBaseUrl, type Json } from './wire.js';

export type WireProvider = 'openai-responses' | 'openai-chat';
export type BatchEndpoint = '/v1/responses' | '/v1/chat/completions';

export interface WireRequest {
  /** The Batch API endpoint (the path the synchronous SDK call posts to). */
  readonly url: BatchEndpoint;
  readonly body: Json;
  /** The request record stored with the trial (no credentials). */
  readonly record: Json;
}

export const isWireProvider = (p: string): p is WireProvider => p === 'openai-responses' || p === 'openai-chat';

/** The request a trial makes through an OpenAI-wire provider. */
export function wireRequest(spec: TrialSpec, provider: WireProvider, baseURL: string | undefined): WireRequest {
  const base = publicBaseUrl(baseURL);
  if (provider === 'openai-responses') {
    const body = responsesBody(spec);
    return { url: '/v1/responses', body, record: { endpoint: 'responses', base_url: base, body } };
  }
  const body = chatBody(spec, isOfficialEndpoint(baseURL));
  return { url: '/v1/chat/completions', body, record: { endpoint: 'chat.completions', base_url: base, body } };
}

/** Read an answer body of a provider's endpoint (throws ProviderError 'malformed' on a bad shape). */
export function readWire(provider: WireProvider, json: unknown, raw: string): Omit<ProviderResponse, 'raw' | 'request'> {
  return provider === 'openai-responses' ? readResponses(json, raw) : readChat(json, raw);
}
