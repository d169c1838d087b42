/**
 * The user-facing messages used only in live/prompts/payoff/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */
import { q } from '../../../core/messages/text.js';

const roles = (outcome: string) => `you {${outcome[0]}}, the other player {${outcome[1]}}`;
const list = (names: readonly string[]) => [...new Set(names)].map((n) => `{${n}}`).join(', ');

const UNDECIDED: Readonly<Record<string, string>> = {
  'no-action': 'it names no action',
  'one-action': 'it names the action of one player only',
  roles: 'it does not say which player takes which action',
  outcomes: 'it names more than one outcome',
  negation: 'it negates an action or speaks of several outcomes (not, unless, instead, whatever …)',
};

export const payoffMsg = {
  wrongOutcome: (subject: string, line: number, clause: string, outcome: string, placeholder: string, stated: string) =>
    `${subject}: template line ${line}: the clause ${q(clause)} names outcome ${outcome} (${roles(outcome)}) but states {${placeholder}}, `
    + `a payoff of outcome ${stated}: each payoff must sit with its own outcome (docs/methods.md §18b)`,
  wrongPlayer: (subject: string, line: number, clause: string, outcome: string, placeholder: string, recipient: 'you' | 'other') =>
    `${subject}: template line ${line}: the clause ${q(clause)} names outcome ${outcome} (${roles(outcome)}) and gives {${placeholder}} `
    + `to ${recipient === 'you' ? 'you' : 'the other player'}, but in outcome ${outcome} it is ${recipient === 'you' ? 'the other player\'s' : 'your'} payoff `
    + '(docs/methods.md §18b)',
  undecided: (subject: string, line: number, clause: string, why: string, placeholders: readonly string[]) =>
    `${subject}: template line ${line}: the payoff rule cannot decide the clause ${q(clause)}: ${UNDECIDED[why] ?? why}; `
    + `${list(placeholders)} not checked against ${placeholders.length === 1 ? 'its' : 'their'} outcome `
    + '(write each outcome as "if you {C} and the other player {D}, you get {you.CD} and they get {other.CD}", docs/methods.md §18b)',
  hardCoded: (subject: string, line: number, value: string, game: string) =>
    `${subject}: template line ${line} writes ${value}, a payoff of ${game}, as text; `
    + 'a hard-coded number does not follow the game (use a placeholder such as {you.CC})',
  foreignNumber: (subject: string, line: number, value: string, phrase: string, payoffShaped: boolean) =>
    `${subject}: template line ${line} writes ${value}${payoffShaped ? ' as a payoff or a cost' : ''} (${q(phrase)}), `
    + 'a number no game of this design has as a payoff: '
    + 'a story that states a payoff, a fine or a bonus of its own changes the game, and the static check cannot tell (docs/methods.md §18b)',
};
