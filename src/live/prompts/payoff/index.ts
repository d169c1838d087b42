/**
 * The payoff check of a story template (docs/methods.md §18b): the payoff rule on every clause
 * (clauses.ts, roles.ts, check.ts) — a refusal for the first payoff that sits with a wrong outcome
 * or player, a warning for each clause it cannot decide — and the number rule (numbers.ts).
 */
import { literalText, parseTemplate } from '../template.js';
import { checkClause, type Meanings, type PayoffMeaning } from './check.js';
import { clausesOf } from './clauses.js';
import { declaredNames } from './roles.js';
import { storyNumbers } from './numbers.js';
import { payoffMsg } from './messages.js';

export type { Meanings, PayoffMeaning } from './check.js';

const swap = (o: string) => `${o[1]}${o[0]}`;

/** A framing's placeholders: {you.XY} is your payoff in outcome XY, {other.XY} the other player's. */
export const framingMeanings = (shadowed: readonly string[] = []): Meanings => (name) => {
  const m = /^(you|other)\.([CD]{2})$/.exec(name);
  return m === null || shadowed.includes(name) ? undefined : [{ who: m[1] as 'you' | 'other', outcome: m[2] }];
};

/** A symmetric fact's {T} {R} {P} {S}: R both cooperate, P both defect, T the defector's and S the cooperator's payoff of CD or DC. */
const SYMMETRIC: Readonly<Record<string, readonly PayoffMeaning[]>> = {
  R: [{ who: 'you', outcome: 'CC' }, { who: 'other', outcome: 'CC' }],
  P: [{ who: 'you', outcome: 'DD' }, { who: 'other', outcome: 'DD' }],
  T: [{ who: 'you', outcome: 'DC' }, { who: 'other', outcome: swap('DC') }],
  S: [{ who: 'you', outcome: 'CD' }, { who: 'other', outcome: swap('CD') }],
};
export const factMeanings: Meanings = (name) => SYMMETRIC[name];

export interface PayoffCheck {
  /** The refusal: the first payoff placeholder at a wrong outcome or player (its template line). */
  readonly fault?: { readonly line: number; readonly message: string; readonly outcome: string };
  /** A warning for each clause holding a payoff that the rule cannot decide. */
  readonly undecided: readonly string[];
}

/**
 * The payoff rule on a template (valid under `known`); `subject` names it in messages ("framing x"), `warnAs` in the
 * undecided clauses' warnings when they name it otherwise (a fact: its refusal sits at its field, its warning quotes it).
 */
export function payoffCheck(text: string, known: readonly string[], meanings: Meanings, subject: string, warnAs = subject): PayoffCheck {
  const t = parseTemplate(text, known);
  if (t.fault) return { undecided: [] };
  const names = declaredNames(literalText(t.parts));
  const undecided: string[] = [];
  for (const c of clausesOf(t.parts)) {
    const v = checkClause(c, meanings, names);
    if (v === undefined) continue;
    if (v.kind === 'undecided') { undecided.push(payoffMsg.undecided(warnAs, v.line, v.clause, v.why, v.placeholders)); continue; }
    const message = v.recipient === undefined
      ? payoffMsg.wrongOutcome(subject, v.line, v.clause, v.outcome, v.placeholder, v.stated)
      : payoffMsg.wrongPlayer(subject, v.line, v.clause, v.outcome, v.placeholder, v.recipient);
    return { fault: { line: v.line, message, outcome: v.outcome }, undecided };
  }
  return { undecided };
}

/** A game's payoffs by id, for the number rule. */
export interface GamePayoffs {
  readonly id: string;
  readonly values: readonly number[];
}

/**
 * The number rule's warnings on a template: a number equal to a payoff of a game, or one no game has;
 * each begins with `at(line)` (where the template's line stands in its file, when known).
 */
export function numberWarnings(text: string, known: readonly string[], games: readonly GamePayoffs[], subject: string,
  at: (line: number) => string = () => ''): string[] {
  const t = parseTemplate(text, known);
  if (t.fault) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const n of storyNumbers(literalText(t.parts))) {
    if (seen.has(n.value)) continue;
    seen.add(n.value);
    const g = games.find((x) => x.values.some((v) => Math.abs(v) === n.numeric));
    out.push(at(n.line) + (g ? payoffMsg.hardCoded(subject, n.line, n.value, g.id)
      : payoffMsg.foreignNumber(subject, n.line, n.value, n.phrase, n.payoffShaped)));
  }
  return out;
}
