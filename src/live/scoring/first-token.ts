/**
 * First-token scoring (docs/methods.md, after the context-enrichment paper): from the top-k alternatives at the first output
 * position, t = Σ prob of candidates whose trimmed, upper-cased text is a non-empty prefix of the
 * first action word (the label of C), r = the same for the second (the label of D), and
 * P(C) = t / (t + r).
 *
 * When only one action has candidates, the other's mass is unknown: it lies somewhere in the
 * unreturned mass u = 1 − Σ returned. It is imputed as u/2 (the context-enrichment paper's midpoint), the imputation is
 * recorded, and the bounds with the missing mass at 0 and at u are returned for sensitivity
 * analyses. With neither action present the trial is invalid.
 */
import type { TopLogprob } from '../types.js';

export interface FirstTokenScore {
  readonly status: 'ok' | 'invalid';
  /** t/(t+r) after any imputation; null when invalid. */
  readonly pCooperate: number | null;
  /** Mass of the candidates naming C and D, as returned (before imputation). */
  readonly t: number;
  readonly r: number;
  /** Σ prob of every returned candidate, and 1 minus it (never below 0). */
  readonly returned: number;
  readonly unreturned: number;
  /** Which action's mass was imputed as unreturned/2, if any. */
  readonly imputed: 'none' | 'C' | 'D';
  /** P(C) with the missing action's mass at 0 and at the full unreturned mass (equal to pCooperate when nothing was imputed). */
  readonly bounds: { readonly missingAtZero: number; readonly missingAtFull: number } | null;
  readonly reason?: string;
}

/** True when the candidate's trimmed, upper-cased text is a non-empty prefix of the word. */
export function namesWord(token: string, word: string): boolean {
  const t = token.trim().toUpperCase();
  return t !== '' && word.toUpperCase().startsWith(t);
}

/** A log-probability above 0 by more than rounding (a probability above 1) is impossible. */
export const MAX_LOGPROB = 1e-6;

/**
 * Why a candidate cannot be scored, or undefined: its text must be a string and its log-probability
 * a number that is not NaN, +∞ or above MAX_LOGPROB (−∞, probability 0, is a log-probability).
 */
function badCandidate(c: unknown, i: number): string | undefined {
  const { token, logprob } = (c ?? {}) as { token?: unknown; logprob?: unknown };
  if (typeof token !== 'string') return `first-token candidate ${i + 1} has no text (token is ${token === null ? 'null' : typeof token})`;
  if (typeof logprob !== 'number' || Number.isNaN(logprob) || logprob === Infinity) {
    return (`first-token candidate ${i + 1} (${JSON.stringify(token)}) has a log-probability that is not a number or not finite ` +
      `(${typeof logprob === 'number' ? String(logprob) : JSON.stringify(logprob) ?? typeof logprob})`);
  }
  if (logprob > MAX_LOGPROB) return (`first-token candidate ${i + 1} (${JSON.stringify(token)}) has a positive log-probability (${logprob}): a probability ` +
    `above 1 is impossible`);
  return undefined;
}

/** Score the first output position's alternatives against [C word, D word]. */
export function scoreFirstToken(top: readonly TopLogprob[], actionWords: readonly [string, string]): FirstTokenScore {
  let t = 0, r = 0, returned = 0, hasC = false, hasD = false;
  const bad = top.map(badCandidate).find((m) => m !== undefined);
  if (bad !== undefined) return { status: 'invalid', pCooperate: null, t: 0, r: 0, returned: 0, unreturned: 1, imputed: 'none', bounds: null, reason: bad };
  for (const c of top) {
    const p = Math.exp(Math.min(c.logprob, 0));
    returned += p;
    if (namesWord(c.token, actionWords[0])) { t += p; hasC = true; }
    else if (namesWord(c.token, actionWords[1])) { r += p; hasD = true; }
  }
  const unreturned = Math.max(0, 1 - returned);
  const base = { t, r, returned, unreturned };
  const invalid = (reason: string): FirstTokenScore => ({ status: 'invalid', pCooperate: null, ...base, imputed: 'none', bounds: null, reason });
  if (!hasC && !hasD) return invalid(top.length === 0 ? 'no alternatives were returned' : 'no returned candidate names either action');
  if (hasC && hasD) {
    if (t + r <= 0) return invalid('both actions have zero probability');
    const p = t / (t + r);
    return { status: 'ok', pCooperate: p, ...base, imputed: 'none', bounds: { missingAtZero: p, missingAtFull: p } };
  }
  // One action is missing; a present action with zero mass and nothing unreturned leaves 0/0.
  if (t + r <= 0) return invalid('the only action returned has zero probability');
  const half = unreturned / 2;
  const ratio = (c: number, d: number) => c / (c + d);
  if (!hasC) {
    return { status: 'ok', pCooperate: ratio(half, r), ...base, imputed: 'C', bounds: { missingAtZero: ratio(0, r), missingAtFull: ratio(unreturned, r) } };
  }
  return { status: 'ok', pCooperate: ratio(t, half), ...base, imputed: 'D', bounds: { missingAtZero: ratio(t, 0), missingAtFull: ratio(t, unreturned) } };
}
