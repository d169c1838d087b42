/**
 * The length of a round prompt without rendering its history, for the dry run of a repeated
 * design: a history renders as a head (the table's header, or nothing) and one line per round, and
 * a prompt holds the history a fixed number of times (once in Akata et al.'s prompt, as often as
 * a template writes {history}); so the prompt of round t is the prompt with no history plus that
 * many times the head and the lines of rounds 1…t−1 — in characters, or in bytes inside a JSON
 * string (a batch line holds the prompt once). Memory and time per decision stay constant
 * however many rounds a match has (test/live/repeated/dry-run.test.ts checks the lengths against
 * rendered prompts).
 */
import type { Action } from '../../core/games.js';
import type { MatchPlan } from './plan.js';
import { roundPrompt, seatRounds, type PlayedRound } from './prompt.js';
import { renderHistory } from './history.js';
import type { PlaySpec } from './types.js';

const CC: PlayedRound = { moves: ['C', 'C'] as readonly [Action, Action] };

/** A text's length: its characters (token estimates), or its bytes inside a JSON string (batch lines). */
export type Measure = (s: string) => number;
export const CHARS: Measure = (s) => s.length;
export const JSON_BYTES: Measure = (s) => Buffer.byteLength(JSON.stringify(s)) - 2;

export class PromptLengths {
  /** Length of the history's head (rendered once when there is any round). */
  private readonly head: number;
  /** How many times the prompt holds the history. */
  private readonly copies: number;

  constructor(private readonly play: PlaySpec, private readonly m: MatchPlan, private readonly seat: 1 | 2, private readonly measure: Measure = CHARS) {
    const one = this.render([CC], 1), two = this.render([CC, CC], 1);
    this.head = 2 * one - two;
    const withOne = this.prompt(2, [CC]), without = this.prompt(2, []);
    this.copies = one > 0 ? (withOne - without) / one : 0;
  }

  private render(history: readonly PlayedRound[], round: number): number {
    const rows = seatRounds(history, this.seat, this.m.game, this.m.framing.labels).map((r) => ({ ...r, round }));
    return this.measure(renderHistory(this.play.history, rows));
  }

  private prompt(round: number, history: readonly PlayedRound[]): number {
    return this.measure(roundPrompt({ play: this.play, game: this.m.game, framing: this.m.framing, seat: this.seat, match: this.m.match, round,
      history }).prompt);
  }

  /** Length round `round`'s line adds to the history. */
  line(round: number, h: PlayedRound): number {
    return this.render([h], round) - this.head;
  }

  /** Length the history adds to round `round`'s prompt, its lines summing to `lines`. */
  historyPart(round: number, lines: number): number {
    return round > 1 ? this.copies * (this.head + lines) : 0;
  }

  /** Length of round `round`'s prompt whose history's lines sum to `lines` (0: no history yet). */
  promptLength(round: number, lines: number): number {
    return this.prompt(round, []) + this.historyPart(round, lines);
  }
}
