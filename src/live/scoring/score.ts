/**
 * A response to a trial outcome. Sample scoring: the parsed text decides (ok with its action, or
 * invalid with the parser's reason). Logprob scoring (docs/methods.md): the first-token probability of C
 * decides the status; the parsed text is kept alongside, and the scoring details (t, r, returned
 * and unreturned mass, imputation and its bounds) are stored as JSON.
 */
import { scoreFirstToken } from './first-token.js';
import { parseAction } from './parse.js';
import type { Action, ProviderResponse, TrialSpec } from '../types.js';

export interface Scored {
  readonly status: 'ok' | 'invalid';
  readonly action: Action | null;
  readonly pCooperate: number | null;
  /** JSON details of first-token scoring; null for sample scoring. */
  readonly scoring: string | null;
  /** Why the trial is invalid; null when ok. */
  readonly reason: string | null;
}

export function scoreResponse(spec: TrialSpec, res: ProviderResponse): Scored {
  const parsed = parseAction(res.text, spec.labels);
  if (spec.scoring === 'sample') {
    return parsed.action === null
      ? { status: 'invalid', action: null, pCooperate: null, scoring: null, reason: parsed.reason }
      : { status: 'ok', action: parsed.action, pCooperate: null, scoring: null, reason: null };
  }
  const textPart = { text_action: parsed.action, ...(parsed.action === null ? { text_reason: parsed.reason } : {}) };
  if (!res.firstTokenTopLogprobs || res.firstTokenTopLogprobs.length === 0) {
    const reason = 'the provider returned no first-token log-probabilities';
    return { status: 'invalid', action: parsed.action, pCooperate: null, scoring: JSON.stringify({ method: 'first-token', reason, ...textPart }), reason };
  }
  const ft = scoreFirstToken(res.firstTokenTopLogprobs, spec.actionWords);
  const scoring = JSON.stringify({
    method: 'first-token', action_words: spec.actionWords, t: ft.t, r: ft.r, returned: ft.returned, unreturned: ft.unreturned,
    imputed: ft.imputed, bounds: ft.bounds, ...(ft.reason === undefined ? {} : { reason: ft.reason }), ...textPart,
  });
  return { status: ft.status, action: parsed.action, pCooperate: ft.pCooperate, scoring, reason: ft.status === 'ok' ? null : (ft.reason ?? null) };
}
