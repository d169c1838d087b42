/**
 * Provider `openai-chat`: Chat Completions through the official SDK, against OpenAI or any
 * compatible server by base URL (vLLM, Ollama, llama.cpp server). First-token scoring uses
 * logprobs: true with top_logprobs (docs/methods.md).
 */
import type OpenAI from 'openai';
import type { Provider, ProviderRequest, ProviderResponse, TrialSpec } from '../types.js';
import { extraBody, isObject, isOfficialEndpoint, lazyOpenAIClient, malformed, num, publicBaseUrl, rawCall, topOf, trialHeader, trialSeed, type Json,
  type OpenAIWireOptions } from './wire.js';

/**
 * OpenAI's own endpoint wants max_completion_tokens (reasoning models reject max_tokens);
 * compatible servers (vLLM, Ollama, llama.cpp) all read max_tokens.
 */
export function chatBody(spec: TrialSpec, officialEndpoint: boolean): Json {
  const d = spec.decoding;
  const messages: Json[] = [];
  if (spec.system !== undefined) messages.push({ role: 'system', content: spec.system });
  messages.push({ role: 'user', content: spec.prompt });
  const body: Json = { model: spec.model.model, messages };
  if (d.temperature !== undefined) body.temperature = d.temperature;
  if (d.maxTokens !== undefined) body[officialEndpoint ? 'max_completion_tokens' : 'max_tokens'] = d.maxTokens;
  const seed = trialSeed(d.seed, spec.rep);
  if (seed !== undefined) body.seed = seed;
  if (d.reasoningEffort !== undefined) body.reasoning_effort = d.reasoningEffort;
  if (spec.scoring === 'logprobs') {
    body.logprobs = true;
    body.top_logprobs = d.topLogprobs ?? 20;
  }
  return { ...body, ...extraBody(spec.model.options) };
}

export function readChat(json: unknown, raw: string): Omit<ProviderResponse, 'raw' | 'request'> {
  if (!isObject(json) || !Array.isArray(json.choices) || json.choices.length === 0) throw malformed('no "choices"', raw);
  const choice = json.choices[0];
  if (!isObject(choice) || !isObject(choice.message)) throw malformed('no "message" in the first choice', raw);
  const content = choice.message.content;
  if (content !== null && content !== undefined && typeof content !== 'string') throw malformed('"message.content" is not text', raw);
  const lp = isObject(choice.logprobs) && Array.isArray(choice.logprobs.content) ? choice.logprobs.content : [];
  const first = lp.length > 0 ? topOf(lp[0]) : undefined;
  const u = isObject(json.usage) ? json.usage : undefined;
  const inputTokens = num(u?.prompt_tokens);
  const outputTokens = num(u?.completion_tokens);
  return {
    text: content ?? '',
    ...(first ? { firstTokenTopLogprobs: first } : {}),
    ...(typeof json.model === 'string' ? { modelSnapshot: json.model } : {}),
    ...(inputTokens !== undefined && outputTokens !== undefined ? { usage: { inputTokens, outputTokens } } : {}),
  };
}

export function createOpenAIChatProvider(o: OpenAIWireOptions): Provider {
  const connect = lazyOpenAIClient(o);
  const base = publicBaseUrl(o.baseURL);
  const official = isOfficialEndpoint(o.baseURL);
  return {
    id: 'openai-chat',
    async complete(req: ProviderRequest): Promise<ProviderResponse> {
      const body = chatBody(req.spec, official);
      const { client, errors } = await connect();
      const { raw, json } = await rawCall((signal) => client.chat.completions.create(
        body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
        { signal, maxRetries: 0, timeout: o.timeoutMs + 5_000, headers: trialHeader(req.spec) },
      ).asResponse(), req.signal, o, errors);
      return { ...readChat(json, raw), raw, request: { endpoint: 'chat.completions', base_url: base, body } };
    },
  };
}
