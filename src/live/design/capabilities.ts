/**
 * What a design asks of its providers, checked when it is read (and again when --provider
 * replaces them): a provider that returns no log-probabilities (the registry's `logprobs:
 * false`, e.g. anthropic) cannot score `scoring: logprobs`, and one whose API takes a lower
 * temperature than the design's (anthropic: at most 1) would refuse every call. Both are refused
 * before any call, naming the design and the model.
 */
import { BUILTIN_PROVIDERS, isBuiltinProvider } from '../providers/registry.js';
import type { Scoring } from '../types.js';
import type { Path, Problem } from './problems.js';
import { designMsg } from './messages.js';

/** Whether a provider id names a built-in provider without log-probabilities. */
export const lacksLogprobs = (provider: string): boolean => isBuiltinProvider(provider) && !BUILTIN_PROVIDERS[provider].logprobs;

/** The highest temperature a provider's API accepts, when it is below the design schema's 2. */
export const maxTemperature = (provider: string): number | undefined =>
  isBuiltinProvider(provider) ? BUILTIN_PROVIDERS[provider].maxTemperature : undefined;

interface ModelDoc { readonly id: string; readonly provider: string; readonly decoding?: { readonly temperature?: number } }

/** One problem per model whose provider cannot run what the design asks. */
export function capabilityProblems(models: readonly ModelDoc[], scoring: Scoring, temperature?: number): Problem[] {
  const out: Problem[] = [];
  models.forEach((m, i) => {
    if (scoring === 'logprobs' && lacksLogprobs(m.provider)) out.push({ path: ['models', i, 'provider'], message: designMsg.noLogprobs(m.id, m.provider) });
    const t = m.decoding?.temperature ?? temperature;
    const max = maxTemperature(m.provider);
    if (t !== undefined && max !== undefined && t > max) {
      const path: Path = m.decoding?.temperature === undefined ? ['decoding', 'temperature'] : ['models', i, 'decoding', 'temperature'];
      out.push({ path, message: designMsg.temperatureTooHigh(m.id, m.provider, t, max) });
    }
  });
  return out;
}
