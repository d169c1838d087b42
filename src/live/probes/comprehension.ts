/**
 * Comprehension of a framing's payoffs (docs/methods.md §18c): scored probes tallied per model ×
 * game × framing × outcome (both players' questions together), with a Wilson interval, and a
 * verdict per model × framing: "not shown payoff-equivalent for this model" when its accuracy over
 * every probe of the framing is below the threshold (default 0.9), or is below another framing's
 * accuracy of the same model by more than sampling error (the 95% Newcombe interval of the
 * difference lies below 0). Invalid answers count as asked and not correct.
 */
import { moverInterval, wilsonInterval } from '../../stats/wilson.js';
import type { ProbeScore } from './score.js';

export interface ScoredProbe {
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly outcome: string;
  readonly score: ProbeScore;
}

/** A row of reports/comprehension.csv. */
export interface ComprehensionRow {
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly outcome: string;
  readonly asked: number;
  readonly correct: number;
  readonly invalid: number;
  readonly accuracy: number;
  readonly lo: number;
  readonly hi: number;
}

export const DEFAULT_COMPREHENSION_THRESHOLD = 0.9;

type Tally = { first: ScoredProbe; asked: number; correct: number; invalid: number };

function tally(probes: readonly ScoredProbe[], key: (p: ScoredProbe) => string): Map<string, Tally> {
  const out = new Map<string, Tally>();
  for (const p of probes) {
    const k = key(p);
    const t = out.get(k) ?? { first: p, asked: 0, correct: 0, invalid: 0 };
    t.asked++;
    if (p.score === 'correct') t.correct++;
    if (p.score === 'invalid') t.invalid++;
    out.set(k, t);
  }
  return out;
}

/** One row per model × game × framing × outcome, in the order first asked. */
export function comprehensionRows(probes: readonly ScoredProbe[]): ComprehensionRow[] {
  return [...tally(probes, (p) => [p.model, p.game, p.framing, p.outcome].join('\u0000')).values()].map(({ first, asked, correct, invalid }) => {
    const [lo, hi] = wilsonInterval(correct, asked);
    return { model: first.model, game: first.game, framing: first.framing, outcome: first.outcome, asked, correct, invalid, accuracy: correct / asked, lo, hi };
  });
}

export interface ComprehensionVerdict {
  readonly model: string;
  readonly framing: string;
  readonly asked: number;
  readonly correct: number;
  readonly accuracy: number;
  readonly lo: number;
  readonly hi: number;
  /** False: "not shown payoff-equivalent for this model". */
  readonly shown: boolean;
  /** Why not shown: below the threshold, and/or the framings of the model it is less accurate than. */
  readonly below: boolean;
  readonly differsFrom: readonly string[];
}

/** The verdict of each model × framing over all its probes (every game). */
export function comprehensionVerdicts(probes: readonly ScoredProbe[], threshold = DEFAULT_COMPREHENSION_THRESHOLD): ComprehensionVerdict[] {
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`comprehension threshold must be in (0, 1], not ${threshold}`);
  const cells = [...tally(probes, (p) => `${p.model}\u0000${p.framing}`).values()];
  return cells.map(({ first, asked, correct }) => {
    const [lo, hi] = wilsonInterval(correct, asked);
    const differsFrom = cells.filter((o) => o.first.model === first.model && o.first.framing !== first.framing).filter((o) => {
      const [, u] = moverInterval([{ x: correct, n: asked, weight: 1 }, { x: o.correct, n: o.asked, weight: -1 }]);
      return u < 0;
    }).map((o) => o.first.framing);
    const below = correct / asked < threshold;
    const shown = !below && differsFrom.length === 0;
    return { model: first.model, framing: first.framing, asked, correct, accuracy: correct / asked, lo, hi, shown, below, differsFrom };
  });
}

/** The mark a framing's R and shift carry where its verdict is not shown. */
export const NOT_SHOWN = 'not shown payoff-equivalent for this model';
