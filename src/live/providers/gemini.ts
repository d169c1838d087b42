/**
 * Provider `gemini`: the Gemini API's generateContent (POST /v1beta/models/{model}:generateContent)
 * through the official SDK (@google/genai), with no retry options (the SDK then makes one attempt;
 * the runner retries 429 RESOURCE_EXHAUSTED and 5xx with backoff). The body is the documented
 * REST request: `contents` (the user turn), `systemInstruction`, `generationConfig` (temperature,
 * maxOutputTokens, seed, and for `scoring: logprobs` responseLogprobs with logprobs = k). The
 * first position's `logprobsResult.topCandidates` become the first-token alternatives of
 * docs/methods.md. Every response passes through a capturing fetch, so the stored body is the
 * bytes received and errors keep their status, headers and body.
 */
import type { GenerateContentParameters, GoogleGenAI } from '@google/genai';
import type { Provider, ProviderRequest, ProviderResponse, TopLogprob, TrialSpec } from '../types.js';
import { ProviderError } from '../types.js';
import { errorForStatus, parseRetryAfter, redact } from './errors.js';
import { boundedText, extraBody, isObject, malformed, num, publicBaseUrl, rawCall, trialHeader, trialSeed, type Json } from './wire.js';
import { MAX_RESPONSE_BYTES } from './response.js';
import type { SdkProviderOptions } from './anthropic.js';

export const GEMINI_API = 'https://generativelanguage.googleapis.com';
export const GEMINI_API_VERSION = 'v1beta';

/** The generateContent body of a trial before the design's extra fields. */
export function geminiBaseBody(spec: TrialSpec): Json {
  const d = spec.decoding;
  const config: Json = {};
  if (d.temperature !== undefined) config.temperature = d.temperature;
  if (d.maxTokens !== undefined) config.maxOutputTokens = d.maxTokens;
  const seed = trialSeed(d.seed, spec.rep);
  if (seed !== undefined) config.seed = seed;
  if (spec.scoring === 'logprobs') {
    config.responseLogprobs = true;
    config.logprobs = d.topLogprobs ?? 20;
  }
  const body: Json = { contents: [{ role: 'user', parts: [{ text: spec.prompt }] }] };
  if (spec.system !== undefined) body.systemInstruction = { parts: [{ text: spec.system }] };
  if (Object.keys(config).length > 0) body.generationConfig = config;
  return body;
}

/** `extra` merged into `base` as the SDK merges httpOptions.extraBody: objects field by field, anything else replaced. */
export function deepMerge(base: Json, extra: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(extra)) out[k] = isObject(v) && isObject(out[k]) ? deepMerge(out[k] as Json, v) : v;
  return out;
}

/**
 * The generateContent body of a trial, as sent and as a batch job's inline request carries it:
 * the design's `options.extraBody` (REST fields, e.g. safetySettings or generationConfig.thinkingConfig) merged in.
 */
export function geminiBody(spec: TrialSpec): Json {
  return deepMerge(geminiBaseBody(spec), extraBody(spec.model.options));
}

/**
 * One alternative of logprobsResult, as written: the scoring judges it (scoring/first-token.ts),
 * so a candidate without a token, or whose logProbability is text, null, +∞ or positive, makes the
 * trial invalid rather than being left out. The API writes proto3 JSON, which leaves out a field
 * at its default: a candidate without `logProbability` has log-probability 0 (probability 1).
 */
function candidateOf(c: unknown): TopLogprob {
  const o = isObject(c) ? c : {};
  return { token: o.token, logprob: o.logProbability === undefined ? 0 : o.logProbability } as TopLogprob;
}

/** The first output position's alternatives: topCandidates[0], else the chosen token alone. */
export function geminiFirstToken(logprobsResult: unknown): TopLogprob[] | undefined {
  if (!isObject(logprobsResult)) return undefined;
  const top = Array.isArray(logprobsResult.topCandidates) ? logprobsResult.topCandidates[0] : undefined;
  const alts = isObject(top) && Array.isArray(top.candidates) ? top.candidates.map(candidateOf) : [];
  if (alts.length > 0) return alts;
  const chosen = Array.isArray(logprobsResult.chosenCandidates) && logprobsResult.chosenCandidates.length > 0 ? candidateOf(logprobsResult.chosenCandidates[
    0]) : undefined;
  return chosen ? [chosen] : undefined;
}

/** Text, first-token alternatives, model version and usage of a generateContent answer. */
export function readGemini(json: unknown, raw: string): Omit<ProviderResponse, 'raw' | 'request'> {
  if (!isObject(json)) throw malformed('not an object', raw);
  const cands = json.candidates;
  // A prompt blocked before any candidate is an answer without text (an invalid trial), not a failure.
  if (cands === undefined && !isObject(json.promptFeedback)) throw malformed('no "candidates"', raw);
  if (cands !== undefined && !Array.isArray(cands)) throw malformed('"candidates" is not an array', raw);
  const first = Array.isArray(cands) ? cands[0] : undefined;
  if (first !== undefined && !isObject(first)) throw malformed('the first candidate is not an object', raw);
  let text = '';
  const parts = isObject(first?.content) && Array.isArray(first.content.parts) ? first.content.parts : [];
  for (const p of parts) if (isObject(p) && typeof p.text === 'string' && p.thought !== true) text += p.text;
  const top = geminiFirstToken(first?.logprobsResult);
  const u = isObject(json.usageMetadata) ? json.usageMetadata : undefined;
  const inputTokens = num(u?.promptTokenCount);
  // Thinking tokens are billed as output.
  const outputTokens = u ? (num(u.candidatesTokenCount) ?? 0) + (num(u.thoughtsTokenCount) ?? 0) : undefined;
  return {
    text,
    ...(top ? { firstTokenTopLogprobs: top } : {}),
    ...(typeof json.modelVersion === 'string' ? { modelSnapshot: json.modelVersion } : {}),
    ...(inputTokens !== undefined && outputTokens !== undefined ? { usage: { inputTokens, outputTokens } } : {}),
  };
}

export const geminiRecord = (body: Json, baseURL: string | undefined): Json =>
  ({ endpoint: 'generateContent', base_url: publicBaseUrl(baseURL, GEMINI_API), body });

/** What the capturing fetch saw of the last response. */
export interface Captured { status: number; headers: Headers; text: string }

/**
 * A fetch that reads each response body itself (under the call's signal) and hands the SDK a
 * copy: the body stored is the bytes received, and a body cut off mid-transfer is `malformed`.
 */
export function capturingFetch(base: typeof fetch, into: { last?: Captured }, maxBytes = MAX_RESPONSE_BYTES): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    let text: string;
    try {
      text = await boundedText(res, maxBytes);
    } catch (e) {
      if (init?.signal?.aborted || e instanceof ProviderError) throw e;
      throw new ProviderError('malformed', `the response body ended early (${e instanceof Error ? e.message : String(e)})`, res.status);
    }
    into.last = { status: res.status, headers: res.headers, text };
    return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** RetryInfo.retryDelay of a google.rpc.Status body ("12s", "0.5s"), in ms. */
function retryInfoMs(body: unknown): number | undefined {
  const details = isObject(body) && isObject(body.error) && Array.isArray(body.error.details) ? body.error.details : [];
  for (const d of details) {
    if (isObject(d) && typeof d.retryDelay === 'string') {
      const m = /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay.trim());
      if (m) return Number(m[1]) * 1000;
    }
  }
  return undefined;
}

/** A non-2xx response of the Gemini API as a ProviderError (429 RESOURCE_EXHAUSTED: rate_limit). */
export function geminiStatusError(c: Captured, nowMs: number, secrets: readonly string[]): ProviderError {
  const raw = redact(c.text, secrets);
  let body: unknown;
  try { body = JSON.parse(raw); } catch { body = undefined; }
  const e = isObject(body) && isObject(body.error) ? body.error : undefined;
  const message = `${typeof e?.status === 'string' ? `${e.status}: ` : ''}${typeof e?.message === 'string' ? e.message : `status ${c.status}`}`;
  return errorForStatus(c.status, message, parseRetryAfter(c.headers, nowMs) ?? retryInfoMs(body), raw);
}

let loading: Promise<typeof import('@google/genai')> | undefined;

/** An SDK client, the SDK imported at the first call (a command that calls nothing never loads it). */
export async function geminiClient(o: SdkProviderOptions): Promise<GoogleGenAI> {
  const m = await (loading ??= import('@google/genai'));
  return new m.GoogleGenAI({
    apiKey: o.apiKey, vertexai: false, apiVersion: GEMINI_API_VERSION,
    httpOptions: { baseUrl: o.baseURL ?? GEMINI_API, timeout: o.timeoutMs + 5_000 },
  });
}

/** The SDK parameters carrying a REST body (the SDK moves them back to the same REST fields). */
export function sdkParams(model: string, body: Json): GenerateContentParameters {
  const gc = isObject(body.generationConfig) ? body.generationConfig : {};
  return {
    model,
    contents: body.contents as GenerateContentParameters['contents'],
    config: { ...gc, ...(body.systemInstruction === undefined ? {} : { systemInstruction: body.systemInstruction as never }) },
  };
}

/** One SDK call through the capturing fetch: the raw response, or a ProviderError from its status. */
export async function capturedCall(o: SdkProviderOptions, call: (fetch: typeof globalThis.fetch) => Promise<unknown>,
  maxBytes = MAX_RESPONSE_BYTES): Promise<Response> {
  const cap: { last?: Captured } = {};
  try {
    await call(capturingFetch(o.fetch ?? globalThis.fetch, cap, maxBytes));
  } catch (e) {
    if (cap.last === undefined) throw e;
    if (cap.last.status >= 300) throw geminiStatusError(cap.last, (o.now ?? Date.now)(), [o.apiKey]);
    // A 2xx body the SDK could not read: rawCall says why (not JSON) or the reader does.
  }
  if (cap.last === undefined) throw new ProviderError('malformed', 'no response was read');
  return new Response(cap.last.text, { status: cap.last.status });
}

export function createGeminiProvider(o: SdkProviderOptions): Provider {
  let ready: Promise<GoogleGenAI> | undefined;
  return {
    id: 'gemini',
    async complete(req: ProviderRequest): Promise<ProviderResponse> {
      const ai = await (ready ??= geminiClient(o));
      const extra = extraBody(req.spec.model.options);
      const params = sdkParams(req.spec.model.model, geminiBaseBody(req.spec));
      const { raw, json } = await rawCall((signal) => capturedCall(o, (f) => ai.models.generateContent({
        ...params,
        config: { ...params.config, abortSignal: signal, httpOptions: { fetch: f, headers: trialHeader(req.spec),
          ...(Object.keys(extra).length > 0 ? { extraBody: extra } : {}) } },
      })), req.signal, o);
      return { ...readGemini(json, raw), raw, request: geminiRecord(geminiBody(req.spec), o.baseURL) };
    },
  };
}
