/**
 * History renderers: how the rounds played so far enter the round prompt, always from the seat's
 * own side ("you" is the seat asked). `akata` writes Akata et al.'s sentences verbatim
 * (pd/query_main.py, MIT: "In round i, you chose Option a and the other player chose Option b.
 * Thus, you won x points and the other player won y points."), one line per round; `table` a
 * compact Markdown table; a template one line per round with its placeholders filled (the one
 * placeholder rule of src/live/prompts/template.ts).
 */
import type { HistorySpec } from './types.js';
import { fillTemplate } from '../prompts/template.js';
import { HISTORY_PLACEHOLDERS } from '../prompts/placeholders.js';

/** One past round seen from a seat: the labels of both moves as shown, and both payoffs. */
export interface SeatRound {
  readonly round: number;
  readonly own: string;
  readonly other: string;
  readonly ownPayoff: number;
  readonly otherPayoff: number;
}

export { HISTORY_PLACEHOLDERS } from '../prompts/placeholders.js';

const akataLine = (r: SeatRound) =>
  (`In round ${r.round}, you chose Option ${r.own} and the other player chose Option ${r.other}. Thus, you won ${r.ownPayoff} points and the other player ` +
    `won ${r.otherPayoff} points.\n`);

export const HISTORY_RENDERERS: Record<HistorySpec['kind'], (rounds: readonly SeatRound[], spec: HistorySpec) => string> = {
  akata: (rounds) => rounds.map(akataLine).join(''),
  table: (rounds) => rounds.length === 0 ? '' : [
    '| Round | You | Other player | Your points | Other player\'s points |',
    '|---|---|---|---|---|',
    ...rounds.map((r) => `| ${r.round} | ${r.own} | ${r.other} | ${r.ownPayoff} | ${r.otherPayoff} |`),
  ].join('\n') + '\n',
  template: (rounds, spec) => rounds.map((r) => `${fillTemplate((spec as { template: string }).template, HISTORY_PLACEHOLDERS, {
    round: r.round, own: r.own, other: r.other, own_payoff: r.ownPayoff, other_payoff: r.otherPayoff,
  })}\n`).join(''),
};

export function renderHistory(spec: HistorySpec, rounds: readonly SeatRound[]): string {
  return HISTORY_RENDERERS[spec.kind](rounds, spec);
}
