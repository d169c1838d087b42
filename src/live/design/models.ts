/** A design's models: decodings merged, prices resolved, and the ModelSpec a trial carries. */
import type { DesignDocument } from './schema.js';
import type { Decoding, ModelSpec, Scoring } from '../types.js';
import type { DesignModel } from './types.js';

const decoding = (d: DesignDocument['decoding']): Decoding => ({
  ...(d?.temperature === undefined ? {} : { temperature: d.temperature }),
  ...(d?.max_tokens === undefined ? {} : { maxTokens: d.max_tokens }),
  ...(d?.seed === undefined ? {} : { seed: d.seed }),
  ...(d?.top_logprobs === undefined ? {} : { topLogprobs: d.top_logprobs }),
  ...(d?.reasoning_effort === undefined ? {} : { reasoningEffort: d.reasoning_effort }),
});

type PricesDoc = NonNullable<DesignDocument['prices']>;
const prices = (p: PricesDoc) => ({
  input: p.input, output: p.output, ...(p.batch_discount === undefined ? {} : { batchDiscount: p.batch_discount }),
});

/** The models of a design document: decodings merged (design, then model), prices resolved. */
export function resolveModels(d: Pick<DesignDocument, 'models' | 'decoding' | 'prices'>, scoring: Scoring): DesignModel[] {
  // Logprob scoring reads the top-k alternatives; the context-enrichment paper used k = 20, the most providers return.
  const base = { ...(scoring === 'logprobs' ? { topLogprobs: 20 } : {}), ...decoding(d.decoding) };
  return d.models.map((m) => ({
    id: m.id, provider: m.provider, model: m.model ?? m.id,
    ...(m.base_url === undefined ? {} : { baseUrl: m.base_url }),
    ...(m.api_key_env === undefined ? {} : { apiKeyEnv: m.api_key_env }),
    options: m.options ?? {},
    decoding: { ...base, ...decoding(m.decoding) },
    ...(m.prices ?? d.prices ? { prices: prices(m.prices ?? d.prices!) } : {}),
    ...(m.batch === undefined ? {} : { batch: m.batch }),
  }));
}

/** The ModelSpec part of a design model (what a TrialSpec carries). */
export function modelSpec(m: DesignModel): ModelSpec {
  return {
    id: m.id, provider: m.provider, model: m.model,
    ...(m.baseUrl === undefined ? {} : { baseUrl: m.baseUrl }),
    ...(m.apiKeyEnv === undefined ? {} : { apiKeyEnv: m.apiKeyEnv }),
    options: m.options,
  };
}
