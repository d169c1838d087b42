/**
 * Provider `openai-responses`: the OpenAI Responses API through the official SDK (v6).
 * First-token scoring (docs/methods.md) needs the top-k alternatives at the first output position:
 * requested with include: ["message.output_text.logprobs"] and top_logprobs.
 */
import type OpenAI from 'openai';
import type { Provider, ProviderRequest, ProviderResponse, TrialSpec } from '../types.js';
import { extraBody, isObject, lazyOpenAIClient, malformed, num, publicBaseUrl, rawCall, topOf, trialHeader, type Json,
  type OpenAIWireOptions } from './wire.js';

/** The API rejects max_output_tokens below 16, so smaller budgets are raised to it (recorded in the request). */
export const MIN_OUTPUT_TOKENS = 16;

export function responsesBody(spec: TrialSpec): Json {
  const d = spec.decoding;
  const body: Json = { model: spec.model.model, input: spec.prompt, store: false };
  if (spec.system !== undefined) body.instructions = spec.system;
  if (d.temperature !== undefined) body.temperature = d.temperature;
  if (d.maxTokens !== undefined) body.max_output_tokens = Math.max(MIN_OUTPUT_TOKENS, d.maxTokens);
  if (d.reasoningEffort !== undefined) body.reasoning = { effort: d.reasoningEffort };
  if (spec.scoring === 'logprobs') {
    body.include = ['message.output_text.logprobs'];
    body.top_logprobs = d.topLogprobs ?? 20;
  }
  return { ...body, ...extraBody(spec.model.options) };
}

/** Text, first-position alternatives, snapshot and usage of a Responses API body. */
export function readResponses(json: unknown, raw: string): Omit<ProviderResponse, 'raw' | 'request'> {
  if (!isObject(json) || !Array.isArray(json.output)) throw malformed('no "output" array', raw);
  let text = '';
  let first: ProviderResponse['firstTokenTopLogprobs'];
  let sawMessage = false;
  for (const item of json.output) {
    if (!isObject(item) || item.type !== 'message' || !Array.isArray(item.content)) continue;
    sawMessage = true;
    for (const part of item.content) {
      if (!isObject(part) || part.type !== 'output_text' || typeof part.text !== 'string') continue;
      text += part.text;
      if (first === undefined && Array.isArray(part.logprobs) && part.logprobs.length > 0) first = topOf(part.logprobs[0]);
    }
  }
  if (!sawMessage && json.status !== 'incomplete') throw malformed('no message in "output"', raw);
  const u = isObject(json.usage) ? json.usage : undefined;
  const inputTokens = num(u?.input_tokens);
  const outputTokens = num(u?.output_tokens);
  return {
    text,
    ...(first ? { firstTokenTopLogprobs: first } : {}),
    ...(typeof json.model === 'string' ? { modelSnapshot: json.model } : {}),
    ...(inputTokens !== undefined && outputTokens !== undefined ? { usage: { inputTokens, outputTokens } } : {}),
  };
}

export function createOpenAIResponsesProvider(o: OpenAIWireOptions): Provider {
  const connect = lazyOpenAIClient(o);
  const base = publicBaseUrl(o.baseURL);
  return {
    id: 'openai-responses',
    async complete(req: ProviderRequest): Promise<ProviderResponse> {
      const body = responsesBody(req.spec);
      const { client, errors } = await connect();
      const { raw, json } = await rawCall((signal) => client.responses.create(
        body as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming,
        { signal, maxRetries: 0, timeout: o.timeoutMs + 5_000, headers: trialHeader(req.spec) },
      ).asResponse(), req.signal, o, errors);
      return { ...readResponses(json, raw), raw, request: { endpoint: 'responses', base_url: base, body } };
    },
  };
}
