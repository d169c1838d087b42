/** Hand-built TrialSpecs for the live-module tests (independent of the design loader). */
import type { ModelSpec, Scoring, TrialSpec } from '../../src/live/types.js';

export function model(provider: string, baseUrl?: string, extra: Partial<ModelSpec> = {}): ModelSpec {
  return { id: 'm1', provider, model: 'loop-model', ...(baseUrl ? { baseUrl } : {}), options: {}, ...extra };
}

export function spec(m: ModelSpec, rep: number, scoring: Scoring = 'logprobs', over: Partial<TrialSpec> = {}): TrialSpec {
  return {
    model: m, game: 'pd', framing: 'abstract', rep, factors: { condition: 'base' },
    system: 'You are a player.', prompt: 'Pick one.\nAnswer with exactly one word, either COOP or DEFECT, and nothing else.',
    labels: { COOP: 'C', DEFECT: 'D' }, actionWords: ['COOP', 'DEFECT'],
    decoding: { temperature: 1, maxTokens: 4, seed: 7, topLogprobs: 5 }, scoring,
    context: { framing: 'abstract', factors: { condition: 'base' } },
    ...over,
  };
}

/** The loopback server's key for a spec (what the x-samegame-trial header carries). */
export const keyOf = (s: TrialSpec) => `${s.model.id}|${s.game}|${s.framing}|${s.rep}`;
