// An example samegame provider plug-in: a chat-completions gateway reached with plain fetch
// (an in-house proxy, or any server speaking the Chat Completions wire format).
//
//   models:
//     - id: my-model
//       provider: ./providers/gateway.mjs     # relative to the design file
//       base_url: https://gateway.example/v1
//       api_key_env: GATEWAY_API_KEY          # the NAME of the variable; the key never enters the design
//
// samegame calls createProvider(model, settings) once per model before the first call, and
// provider.complete({ spec, signal }) once per attempt of a trial. Throw ProviderError with a
// retryable kind (rate_limit, server, timeout, network, malformed) to have the runner retry with
// backoff, or 'client' for a request that will never succeed.
import { ProviderError } from 'samegame';

function body(model, spec) {
  const messages = [...(spec.system ? [{ role: 'system', content: spec.system }] : []), { role: 'user', content: spec.prompt }];
  const b = { model: model.model, messages, temperature: spec.decoding.temperature, max_tokens: spec.decoding.maxTokens };
  if (spec.scoring === 'logprobs') Object.assign(b, { logprobs: true, top_logprobs: spec.decoding.topLogprobs ?? 20 });
  return b;
}

/** What the runner stores: text, first-token alternatives, snapshot, usage, the raw body and the request. */
function read(json, raw, request) {
  const choice = json.choices?.[0];
  if (!choice?.message) throw new ProviderError('malformed', 'no choices in the answer', undefined, undefined, raw);
  const first = choice.logprobs?.content?.[0]?.top_logprobs;
  return {
    text: choice.message.content ?? '',
    ...(first ? { firstTokenTopLogprobs: first.map(({ token, logprob }) => ({ token, logprob })) } : {}),
    ...(json.model ? { modelSnapshot: json.model } : {}),
    ...(json.usage ? { usage: { inputTokens: json.usage.prompt_tokens, outputTokens: json.usage.completion_tokens } } : {}),
    raw, request,
  };
}

export function createProvider(model, settings) {
  if (!model.baseUrl) throw new Error('set base_url to the gateway (…/v1)');
  const key = settings.env[model.apiKeyEnv ?? 'GATEWAY_API_KEY']; // read once; never stored or logged
  const doFetch = settings.fetch ?? fetch;
  return {
    id: 'example-gateway',
    async complete({ spec, signal }) {
      const b = body(model, spec);
      const headers = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
      let res, raw;
      try {
        res = await doFetch(`${model.baseUrl}/chat/completions`, {
          method: 'POST', headers, body: JSON.stringify(b), signal: AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutMs)]),
        });
        raw = await res.text();
      } catch (e) {
        if (signal.aborted) throw new ProviderError('aborted', 'the call was aborted');
        throw new ProviderError(e?.name === 'TimeoutError' ? 'timeout' : 'network', `gateway: ${e?.message ?? e}`);
      }
      if (res.status === 429) throw new ProviderError('rate_limit', 'gateway: rate limited', 429, Number(res.headers.get('retry-after') ?? 0) * 1000);
      if (res.status >= 500) throw new ProviderError('server', `gateway: status ${res.status}`, res.status);
      if (!res.ok) throw new ProviderError('client', `gateway: status ${res.status}`, res.status, undefined, raw);
      let json;
      try { json = JSON.parse(raw); } catch { throw new ProviderError('malformed', 'gateway: the body is not JSON', res.status, undefined, raw); }
      return read(json, raw, { endpoint: 'gateway/chat/completions', base_url: model.baseUrl, body: b });
    },
  };
}
