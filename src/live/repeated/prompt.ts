/**
 * The round prompt: a pure function of the design (play block, game, framing), the seed, the
 * match and round, and the rounds stored before it — so a resumed match asks exactly what an
 * uninterrupted one would have asked. Akata et al.'s prompt (pd/query_main.py, MIT) is
 * reproduced verbatim: the rules, the history sentences, "You are currently playing round i."
 * and "Q: Which Option do you choose, Option X or Option Y?\nA: Option".
 */
import type { Action, Game } from '../../core/games.js';
import { streamFor } from '../../stats/rng.js';
import { framingStory, framingText, labelMap, type Framing, type LabelPair } from '../prompts/index.js';
import { oneWord } from '../prompts/family.js';
import { fillTemplate } from '../prompts/template.js';
import { PROMPT_PLACEHOLDERS } from '../prompts/placeholders.js';
import { renderHistory, type SeatRound } from './history.js';
import type { HorizonSpec, PlaySpec, PromptSpec } from './types.js';

export { PROMPT_PLACEHOLDERS } from '../prompts/placeholders.js';

/** A past round as both seats played it (seat 1's move first). */
export interface PlayedRound {
  readonly moves: readonly [Action, Action];
}

export interface RoundPrompt {
  readonly system?: string;
  readonly prompt: string;
  readonly labels: Readonly<Record<string, Action>>;
  readonly actionWords: readonly [string, string];
  /** The options in the order the question names them. */
  readonly order: readonly [Action, Action];
}

/** The game as a seat sees it: seat 2 is the column player, so its matrix is transposed. */
export function seatGame(game: Game, seat: 1 | 2): Game {
  if (seat === 1) return game;
  const t = (r: Action, c: Action): [number, number] => [game.payoffs[c][r][1], game.payoffs[c][r][0]];
  return { ...game, payoffs: { C: { C: t('C', 'C'), D: t('C', 'D') }, D: { C: t('D', 'C'), D: t('D', 'D') } } };
}

/** The order of the two options in round `round` of match `match`: fixed C first, or redrawn from (seed, match, round). */
export function optionOrder(play: Pick<PlaySpec, 'optionOrder' | 'seed'>, match: number, round: number): [Action, Action] {
  if (play.optionOrder === 'fixed') return ['C', 'D'];
  return streamFor(play.seed, `option-order\u0000${match}\u0000${round}`).next() < 0.5 ? ['C', 'D'] : ['D', 'C'];
}

function horizonSentence(h: HorizonSpec, rounds: number): string {
  if (h.kind === 'disclosed') return `You will play ${rounds} rounds in total with the same player.`;
  if (h.kind === 'end_probability') return `After each round, the game ends with probability ${h.p}.`;
  return '';
}

/** The history rows of a seat: its own move first, payoffs from its side of the game. */
export function seatRounds(history: readonly PlayedRound[], seat: 1 | 2, game: Game, labels: LabelPair): SeatRound[] {
  const label = (a: Action) => labels[a === 'C' ? 0 : 1];
  const g = seatGame(game, seat);
  return history.map((h, i) => {
    const own = h.moves[seat - 1], other = h.moves[2 - seat];
    const [u, v] = g.payoffs[own][other];
    return { round: i + 1, own: label(own), other: label(other), ownPayoff: u, otherPayoff: v };
  });
}

function akataPrompt(play: PlaySpec, game: Game, labels: LabelPair, history: string, round: number, order: readonly [string, string]): string {
  const [lc, ld] = labels;
  const h = horizonSentence(play.horizon, play.rounds);
  const rule = (a: Action, b: Action) => {
    const [u, v] = game.payoffs[a][b];
    return (`If you choose Option ${labels[a === 'C' ? 0 : 1]} and the other player chooses Option ${labels[b === 'C' ? 0 : 1]}, then you win ${u} points ` +
      `and the other player wins ${v} points.\n`);
  };
  return `You are playing a game repeatedly with another player. In this game, you can choose between Option ${lc} and Option ${ld}. `
    + `${h === '' ? '' : `${h} `}The rules of the game are as follows:\n`
    + rule('C', 'C') + rule('C', 'D') + rule('D', 'C') + rule('D', 'D') + '\n'
    + history
    + `\nYou are currently playing round ${round}.\nQ: Which Option do you choose, Option ${order[0]} or Option ${order[1]}?\nA: Option`;
}

export interface RoundInput {
  readonly play: PlaySpec;
  readonly game: Game;
  readonly framing: Framing;
  readonly seat: 1 | 2;
  readonly match: number;
  /** 1-based. */
  readonly round: number;
  /** Rounds 1 … round−1 as stored. */
  readonly history: readonly PlayedRound[];
}

/**
 * The round prompt of a framing (`prompt: framing`, the default of a template framing): its text
 * as one-shot designs send it, with the round block — the horizon, the history and the round —
 * right before the answer instruction, which names the options in the round's order.
 */
function framingRound(i: RoundInput, g: Game, history: string, shown: readonly [string, string]): { system?: string; prompt: string } {
  const t = framingText(i.framing, g, true);
  const h = horizonSentence(i.play.horizon, i.play.rounds);
  const block = `${h === '' ? '' : `${h}\n`}${history}You are currently playing round ${i.round}.\n`;
  return { ...(t.system === undefined ? {} : { system: t.system }), prompt: `${t.head.trimEnd()}\n\n${block}${oneWord(shown)}${t.tail}` };
}

/** The prompt kind of a framing: the design's per-framing prompt, else a template framing's own text, else the design's prompt. */
const promptOf = (i: RoundInput): PromptSpec => i.play.prompts[i.framing.id] ?? (i.framing.template !== undefined ? { kind: 'framing' } : i.play.prompt);

export function roundPrompt(i: RoundInput): RoundPrompt {
  const g = seatGame(i.game, i.seat);
  const labels = i.framing.labels;
  const order = optionOrder(i.play, i.match, i.round);
  const shown: [string, string] = [labels[order[0] === 'C' ? 0 : 1], labels[order[1] === 'C' ? 0 : 1]];
  const history = renderHistory(i.play.history, seatRounds(i.history, i.seat, i.game, labels));
  const spec = promptOf(i);
  const framed = spec.kind === 'framing' ? framingRound(i, g, history, shown) : undefined;
  const prompt = framed?.prompt ?? (spec.kind === 'template'
    ? fillTemplate(spec.template, PROMPT_PLACEHOLDERS, {
      rules: framingStory(i.framing, g), horizon: horizonSentence(i.play.horizon, i.play.rounds),
      history, round: i.round, rounds: i.play.rounds, first: shown[0], second: shown[1], C: labels[0], D: labels[1],
    })
    : akataPrompt(i.play, g, labels, history, i.round, shown));
  const system = i.play.personas[i.seat - 1] ?? framed?.system;
  return { ...(system === undefined ? {} : { system }), prompt, labels: labelMap(labels), actionWords: [labels[0], labels[1]], order };
}
