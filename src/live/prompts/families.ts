/**
 * The registered prompt families of Same Game, Different Story Appendix B, plus the two contexts of its retained
 * contrast (§4.1: a business meeting between CEOs, a conversation between friends aiming for a
 * compromise). Every family states the full payoff matrix in its own labels; only the story and
 * the labels change, never the incentives.
 */
import type { PromptFamily } from './family.js';
import { matrixTable, outcomeLines } from './family.js';

/** §4.1's business context: two CEOs, payoffs as profit. */
const business: PromptFamily = {
  id: 'business',
  title: 'business meeting between the CEOs of two companies',
  defaultLabels: ['C', 'D'],
  render(game, [lc, ld]) {
    return {
      story: [
        'You are the CEO of a company. You are meeting the CEO of a competing company to settle how the two firms will',
        'handle a shared market next quarter. After the meeting, each of you will commit to one of two strategies,',
        `${lc} or ${ld}, at the same time and without knowing the other's choice. The profits depend on both choices:`,
        '',
        outcomeLines(game, [lc, ld], (o) =>
          (`If your company plays ${o.me} and the other company plays ${o.them}, your company earns ${o.u} million dollars and the other company ` +
            `earns ${o.v} million dollars.`)),
      ].join('\n'),
      question: 'Which strategy do you commit to?',
    };
  },
};

/** §4.1's friend-sharing context: two friends looking for a compromise. */
const friendSharing: PromptFamily = {
  id: 'friend-sharing',
  title: 'two friends talking, aiming for a compromise when sharing',
  defaultLabels: ['C', 'D'],
  render(game, [lc, ld]) {
    return {
      story: [
        'You and a close friend are sharing a weekend trip and are talking about how to split the things you both want',
        'to do. You would both like to find a compromise. Each of you will privately pick one of two approaches,',
        `${lc} or ${ld}, and you will reveal them at the same time. How happy each of you ends up, in points:`,
        '',
        outcomeLines(game, [lc, ld], (o) =>
          `If you pick ${o.me} and your friend picks ${o.them}, you get ${o.u} points and your friend gets ${o.v} points.`),
      ].join('\n'),
      question: 'Which approach do you pick?',
    };
  },
};

/** Appendix B's abstract matrix: no story, only the game. */
const abstractMatrix: PromptFamily = {
  id: 'abstract-matrix',
  title: 'the bare payoff matrix of a simultaneous 2×2 game',
  defaultLabels: ['C', 'D'],
  render(game, labels, repeated) {
    return {
      story: [
        `You are the row player in a ${repeated ? '' : 'one-shot '}simultaneous game with one other player. Each player chooses one of`,
        `two actions, ${labels[0]} or ${labels[1]}, without seeing the other's choice. Each cell lists`,
        '(your payoff, the other player\'s payoff) in points:',
        '',
        matrixTable(game, labels, 'You play', 'Other plays'),
      ].join('\n'),
      question: 'Which action do you choose?',
    };
  },
};

/**
 * Appendix B's arbitrary label perturbation: the abstract matrix text with the actions renamed
 * by labels that carry no meaning (J/F, Q/X …), so any change is due to the labels alone.
 */
const labelPerturbation: PromptFamily = {
  id: 'label-perturbation',
  title: 'the abstract matrix with the actions relabelled by arbitrary letters',
  defaultLabels: ['J', 'F'],
  render: (game, labels, repeated) => abstractMatrix.render(game, labels, repeated),
};

/** Appendix B's neutral narrative: a story with no social colouring. */
const neutralNarrative: PromptFamily = {
  id: 'neutral-narrative',
  title: 'a plain description of two participants making a simultaneous choice',
  defaultLabels: ['LEFT', 'RIGHT'],
  render(game, [lc, ld]) {
    return {
      story: [
        'Two participants take part in a decision task. Each participant sits in a separate room and presses one of',
        `two buttons, ${lc} or ${ld}. Neither sees the other's choice before pressing. You are one of the participants.`,
        'The points each participant receives depend on both buttons:',
        '',
        outcomeLines(game, [lc, ld], (o) =>
          `If you press ${o.me} and the other participant presses ${o.them}, you receive ${o.u} points and the other participant receives ${o.v} points.`),
      ].join('\n'),
      question: 'Which button do you press?',
    };
  },
};

/** Appendix B's cooperative narrative: partners on a shared project. */
const cooperativeNarrative: PromptFamily = {
  id: 'cooperative-narrative',
  title: 'teammates on a joint project who depend on each other',
  defaultLabels: ['CONTRIBUTE', 'WITHHOLD'],
  render(game, [lc, ld]) {
    return {
      story: [
        'You and a teammate are working together on a joint project that you both care about. You trust each other',
        'and want the project to succeed. This week each of you decides, separately and at the same time, whether to',
        `${lc} your full effort or ${ld} it. The credit each of you receives, in points:`,
        '',
        outcomeLines(game, [lc, ld], (o) =>
          `If you ${o.me} and your teammate chooses ${o.them}, you receive ${o.u} points and your teammate receives ${o.v} points.`),
      ].join('\n'),
      question: 'What do you choose?',
    };
  },
};

/** Appendix B's competitive narrative: rivals in a contest. */
const competitiveNarrative: PromptFamily = {
  id: 'competitive-narrative',
  title: 'rival sellers in a head-to-head contest',
  defaultLabels: ['HOLD', 'UNDERCUT'],
  render(game, [lc, ld]) {
    return {
      story: [
        'You run a stall at a market, and your only rival runs the stall across the aisle. The two of you compete for',
        'the same customers. Tomorrow morning each of you posts a price policy, at the same time and without seeing',
        `the other's: ${lc} (keep the usual price) or ${ld} (cut below the usual price). Tomorrow's earnings, in dollars:`,
        '',
        outcomeLines(game, [lc, ld], (o) =>
          `If you post ${o.me} and your rival posts ${o.them}, you earn ${o.u} dollars and your rival earns ${o.v} dollars.`),
      ].join('\n'),
      question: 'Which policy do you post?',
    };
  },
};

/** Appendix B's role narrative: the model speaks for a party it is told to represent. */
const roleNarrative: PromptFamily = {
  id: 'role-narrative',
  title: 'a minister representing a country at an arms-control summit',
  defaultLabels: ['DISARM', 'ARM'],
  render(game, [lc, ld]) {
    return {
      system: 'You are the foreign minister of Country A. You speak and decide on behalf of your country.',
      story: [
        'At an international summit, you and the foreign minister of Country B must each announce a defence policy.',
        `The announcements are made simultaneously; each country will either ${lc} or ${ld}. The value of each`,
        'outcome to each country, in points of national welfare:',
        '',
        outcomeLines(game, [lc, ld], (o) =>
          `If Country A announces ${o.me} and Country B announces ${o.them}, Country A gains ${o.u} points and Country B gains ${o.v} points.`),
      ].join('\n'),
      question: 'As the minister of Country A, which policy do you announce?',
    };
  },
};

/** Every family, in the order listings show them. */
export const PROMPT_FAMILIES: readonly PromptFamily[] = [
  business, friendSharing, abstractMatrix, neutralNarrative, cooperativeNarrative,
  competitiveNarrative, roleNarrative, labelPerturbation,
];

export const FAMILY_IDS: readonly string[] = PROMPT_FAMILIES.map((f) => f.id);

export function promptFamily(id: string): PromptFamily | undefined {
  return PROMPT_FAMILIES.find((f) => f.id === id);
}
