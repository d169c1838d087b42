/**
 * What a design asks of its providers, checked when it is read: a provider that returns no
 * log-probabilities (the registry's `logprobs: false`, e.g. anthropic) cannot score a design
 * with `scoring: logprobs`, and is refused before any call.
 */
import { liveMsg } from '../../core/messages/live.js';
import { BUILTIN_PROVIDERS, isBuiltinProvider } from '../providers/registry.js';
import type { Scoring } from '../types.js';
import type { Problem } from './problems.js';

/** Whether a provider id names a built-in provider without log-probabilities. */
export const lacksLogprobs = (provider: string): boolean => isBuiltinProvider(provider) && !BUILTIN_PROVIDERS[provider].logprobs;

/** One problem per model whose provider cannot score `scoring`. */
export function scoringProblems(models: readonly { readonly id: string; readonly provider: string }[], scoring: Scoring): Problem[] {
  if (scoring !== 'logprobs') return [];
  return models.flatMap((m, i) => lacksLogprobs(m.provider) ? [{ path: ['models', i, 'provider'], message: liveMsg.noLogprobs(m.id, m.provider) }] : []);
}
