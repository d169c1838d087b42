/**
 * A prompt family (Same Game, Different Story Appendix B): one story told around a 2×2 game. A family renders any
 * game under any pair of surface labels; every rendering states the whole payoff matrix (so the
 * game can be reconstructed exactly from the text) and asks for a one-word answer.
 */
import type { Action, Game } from '../types.js';

/** Surface labels in canonical order: [label of C, label of D]. */
export type LabelPair = readonly [string, string];

export interface RenderedPrompt {
  readonly system?: string;
  readonly prompt: string;
}

/**
 * A family's text for a game: the story (which states the payoff matrix) and the closing
 * question; the one-word answer instruction follows the question (framing.ts puts them together).
 */
export interface FamilyText {
  readonly system?: string;
  readonly story: string;
  readonly question: string;
}

export interface PromptFamily {
  readonly id: string;
  /** One line saying what the story is, for listings and reviews. */
  readonly title: string;
  readonly defaultLabels: LabelPair;
  /** `repeated`: the story as told in a repeated game (no "one-shot"). */
  render(game: Game, labels: LabelPair, repeated?: boolean): FamilyText;
}

/** The label map of a pair: surface label → canonical action (a bijection onto {C, D}). */
export function labelMap(labels: LabelPair): Record<string, Action> {
  return { [labels[0]]: 'C', [labels[1]]: 'D' };
}

/** Payoffs are printed in JavaScript's shortest round-trip form so the text gives them back exactly. */
export function num(x: number): string {
  return String(x);
}

type Outcome = { me: string; them: string; u: string; v: string };

/**
 * The four outcomes as one line each, row player first: the label of my action, of theirs, my
 * payoff, theirs, in that order on every line, whatever the wording.
 */
export function outcomeLines(game: Game, labels: LabelPair, line: (o: Outcome) => string): string {
  const acts: Action[] = ['C', 'D'];
  const out: string[] = [];
  for (const r of acts) {
    for (const c of acts) {
      const [u, v] = game.payoffs[r][c];
      out.push(`- ${line({ me: labels[r === 'C' ? 0 : 1], them: labels[c === 'C' ? 0 : 1], u: num(u), v: num(v) })}`);
    }
  }
  return out.join('\n');
}

/** The payoff matrix as a Markdown table, cells "(mine, theirs)". */
export function matrixTable(game: Game, labels: LabelPair, me: string, them: string): string {
  const [lc, ld] = labels;
  const cell = (r: Action, c: Action) => `(${num(game.payoffs[r][c][0])}, ${num(game.payoffs[r][c][1])})`;
  return [
    `| | ${them} ${lc} | ${them} ${ld} |`,
    '|---|---|---|',
    `| ${me} ${lc} | ${cell('C', 'C')} | ${cell('C', 'D')} |`,
    `| ${me} ${ld} | ${cell('D', 'C')} | ${cell('D', 'D')} |`,
  ].join('\n');
}

/** The closing request for a one-word answer. */
export function oneWord(labels: LabelPair): string {
  return `Answer with exactly one word, either ${labels[0]} or ${labels[1]}, and nothing else.`;
}
