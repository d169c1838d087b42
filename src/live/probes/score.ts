/**
 * Scoring a probe's answer (docs/methods.md §18c): the answer is the one number its text states
 * (digits, a sign and a decimal part; "5 points", "-2", "**3**"); a text with no number, or with
 * two different numbers, is invalid. Correct when the number equals the game's payoff.
 */
import type { Scored } from '../scoring/score.js';
import type { ProviderResponse, TrialSpec } from '../types.js';
import type { ProbeContext } from './questions.js';

export type ProbeScore = 'correct' | 'wrong' | 'invalid';

/** The one number an answer states, or null. */
export function probeAnswer(text: string): number | null {
  const found = [...new Set([...text.matchAll(/(?<![\p{L}\p{N}.])[-−]?\d+(?:\.\d+)?(?![\p{N}])/gu)].map((m) => Number(m[0].replace('−', '-'))))];
  return found.length === 1 ? found[0] : null;
}

export function scoreProbe(text: string | null, probe: ProbeContext): ProbeScore {
  const n = text === null ? null : probeAnswer(text);
  if (n === null) return 'invalid';
  return n === probe.expected ? 'correct' : 'wrong';
}

/** A probe's status as the runner and the batch collector store it: ok with a number, invalid without one (its score is kept in probe_trials). */
export function scoreProbeResponse(_s: TrialSpec, res: Pick<ProviderResponse, 'text'>): Scored {
  const ok = probeAnswer(res.text) !== null;
  return { status: ok ? 'ok' : 'invalid', action: null, pCooperate: null, scoring: null, reason: ok ? null : 'no single number in the answer' };
}
