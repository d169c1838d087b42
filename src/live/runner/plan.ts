/**
 * What a run will cost before it runs (`samegame run --dry-run`) and the per-call token estimate
 * the tokens-per-minute limit takes before a call. Input tokens are estimated as characters / 4
 * (OpenAI's rule of thumb for English text) plus a few for message framing; output tokens as the
 * call's max tokens, an upper bound.
 */
import type { TrialSpec } from '../types.js';

/** Output tokens assumed when a design sets no max tokens. */
export const DEFAULT_OUTPUT_ESTIMATE = 16;
const MESSAGE_OVERHEAD = 8;

/** Input tokens of a call whose system message and prompt hold `chars` characters. */
export const inputTokensOf = (chars: number): number => Math.ceil(chars / 4) + MESSAGE_OVERHEAD;

export function estimateInputTokens(spec: TrialSpec): number {
  return inputTokensOf((spec.system?.length ?? 0) + spec.prompt.length);
}

export function estimateOutputTokens(spec: TrialSpec): number {
  return spec.decoding.maxTokens ?? DEFAULT_OUTPUT_ESTIMATE;
}

/** USD per million tokens. */
export interface Prices {
  readonly input: number;
  readonly output: number;
}

export interface RunPlan {
  readonly total: number;
  readonly stored: number;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** USD, when prices are known for every model with calls to make (simulated calls are free). */
  readonly cost?: number;
}

export function planRun(specs: readonly TrialSpec[], isStored: (s: TrialSpec) => boolean,
  pricesFor: (s: TrialSpec) => Prices | undefined): RunPlan {
  let stored = 0, inputTokens = 0, outputTokens = 0, cost = 0, priced = true;
  for (const s of specs) {
    if (isStored(s)) { stored++; continue; }
    const i = estimateInputTokens(s), o = estimateOutputTokens(s);
    inputTokens += i;
    outputTokens += o;
    if (s.model.provider === 'simulated') continue;
    const p = pricesFor(s);
    if (p === undefined) priced = false;
    else cost += (i * p.input + o * p.output) / 1e6;
  }
  return { total: specs.length, stored, calls: specs.length - stored, inputTokens, outputTokens, ...(priced ? { cost } : {}) };
}
