/**
 * Provider `anthropic`: the Anthropic Messages API (POST /v1/messages) through the official SDK,
 * its own retries off (the runner retries: 429 with Retry-After, 529 overloaded_error and other
 * 5xx with backoff; other 4xx are failed trials). The system prompt and the user turn are sent
 * as the OpenAI providers send them. The API returns no log-probabilities: a design scoring
 * `logprobs` on an anthropic model is refused when it is read (design/capabilities.ts).
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { Provider, ProviderRequest, ProviderResponse, TrialSpec } from '../types.js';
import type { SdkErrorClasses } from './errors.js';
import { extraBody, isObject, malformed, num, publicBaseUrl, rawCall, trialHeader, type Json } from './wire.js';

export const ANTHROPIC_API = 'https://api.anthropic.com';
/** The Messages API requires max_tokens; a design without one gets this budget (recorded in the request). */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;

type Sdk = typeof import('@anthropic-ai/sdk');
let loading: Promise<Sdk> | undefined;
/** The SDK, imported at the first call: a command that calls nothing never loads it. */
const sdk = (): Promise<Sdk> => (loading ??= import('@anthropic-ai/sdk'));

export interface SdkProviderOptions {
  readonly apiKey: string;
  /** Server root (without /v1), e.g. http://127.0.0.1:8080; the vendor's own when absent. */
  readonly baseURL?: string;
  readonly timeoutMs: number;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
}

/** The Messages API body of a trial (what a Message Batches request carries as `params` too). */
export function anthropicBody(spec: TrialSpec): Json {
  const d = spec.decoding;
  const body: Json = { model: spec.model.model, max_tokens: d.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS };
  if (spec.system !== undefined) body.system = spec.system;
  body.messages = [{ role: 'user', content: spec.prompt }];
  if (d.temperature !== undefined) body.temperature = d.temperature;
  return { ...body, ...extraBody(spec.model.options) };
}

/** Text (the text blocks joined), snapshot and usage of a Messages API answer. */
export function readAnthropic(json: unknown, raw: string): Omit<ProviderResponse, 'raw' | 'request'> {
  if (!isObject(json) || json.type !== 'message' || !Array.isArray(json.content)) throw malformed('not a "message" with a "content" array', raw);
  let text = '';
  for (const block of json.content) {
    if (isObject(block) && block.type === 'text') {
      if (typeof block.text !== 'string') throw malformed('a text block without text', raw);
      text += block.text;
    }
  }
  const u = isObject(json.usage) ? json.usage : undefined;
  const inputTokens = num(u?.input_tokens);
  const outputTokens = num(u?.output_tokens);
  return {
    text,
    ...(typeof json.model === 'string' ? { modelSnapshot: json.model } : {}),
    ...(inputTokens !== undefined && outputTokens !== undefined ? { usage: { inputTokens, outputTokens } } : {}),
  };
}

/** The request record stored with a trial (no credentials). */
export const anthropicRecord = (body: Json, baseURL: string | undefined): Json =>
  ({ endpoint: 'messages', base_url: publicBaseUrl(baseURL, ANTHROPIC_API), body });

export interface AnthropicClient {
  readonly client: Anthropic;
  /** The SDK's error classes, for mapping its failures to ProviderError kinds. */
  readonly errors: SdkErrorClasses;
}

/** An SDK client with its own retries off (the runner retries). */
export async function anthropicClient(o: SdkProviderOptions): Promise<AnthropicClient> {
  const m = await sdk();
  const client = new m.default({
    apiKey: o.apiKey,
    baseURL: o.baseURL ?? ANTHROPIC_API,
    maxRetries: 0,
    // Backstop only: rawCall's timer fires first and also covers the body.
    timeout: o.timeoutMs + 5_000,
    logLevel: 'off',
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
  return { client, errors: { api: m.APIError, connection: m.APIConnectionError, connectionTimeout: m.APIConnectionTimeoutError,
    userAbort: m.APIUserAbortError } };
}

export function createAnthropicProvider(o: SdkProviderOptions): Provider {
  let ready: Promise<AnthropicClient> | undefined;
  return {
    id: 'anthropic',
    async complete(req: ProviderRequest): Promise<ProviderResponse> {
      const { client, errors } = await (ready ??= anthropicClient(o));
      const body = anthropicBody(req.spec);
      const { raw, json } = await rawCall((signal) => client.messages.create(
        body as unknown as Anthropic.MessageCreateParamsNonStreaming,
        { signal, maxRetries: 0, timeout: o.timeoutMs + 5_000, headers: trialHeader(req.spec) },
      ).asResponse(), req.signal, o, errors);
      return { ...readAnthropic(json, raw), raw, request: anthropicRecord(body, o.baseURL) };
    },
  };
}
