/** The resolved `play` block of a repeated-game design (src/live/design/play.ts reads it). */
import type { StrategyId, StrategyParams } from './strategies.js';

/** An opponent entry: the model itself, another model of the design, or a fixed strategy. */
export type OpponentSpec =
  | { readonly kind: 'self' }
  | { readonly kind: 'model'; readonly id: string }
  | { readonly kind: 'strategy'; readonly id: string; readonly strategy: StrategyId; readonly params: StrategyParams };

/** How past rounds enter the prompt. */
export type HistorySpec =
  | { readonly kind: 'akata' }
  | { readonly kind: 'table' }
  | { readonly kind: 'template'; readonly template: string };

/** What the prompt says about the number of rounds (the run always plays `rounds`). */
export type HorizonSpec =
  | { readonly kind: 'disclosed' }
  | { readonly kind: 'hidden' }
  | { readonly kind: 'end_probability'; readonly p: number };

export type OnInvalid = { readonly kind: 'retry'; readonly n: number } | { readonly kind: 'forfeit' };

/** The round prompt: Akata et al.'s, the framing's own text with the round block, or a template with placeholders (docs/methods.md). */
export type PromptSpec = { readonly kind: 'akata' } | { readonly kind: 'framing' } | { readonly kind: 'template'; readonly template: string };

export interface PlaySpec {
  readonly rounds: number;
  readonly opponents: readonly OpponentSpec[];
  readonly history: HistorySpec;
  readonly horizon: HorizonSpec;
  readonly optionOrder: 'fixed' | 'shuffle';
  readonly onInvalid: OnInvalid;
  readonly prompt: PromptSpec;
  /** Round prompts by framing id (e.g. one per language), replacing `prompt` for that framing. */
  readonly prompts: Readonly<Record<string, PromptSpec>>;
  /** Persona text per seat (sent as the system message), as FAIRGAME's agent personas. */
  readonly personas: readonly [string | undefined, string | undefined];
  /**
   * Persona ids per seat (the design's id, else "p" + the first 8 hex digits of the text's SHA-256),
   * present only when some seat has a persona: each decision then stores the factor `persona` =
   * own-other ("none" for a seat without one, or a fixed strategy), as FAIRGAME's personality pairs.
   */
  readonly personaIds?: readonly [string | undefined, string | undefined];
  /** Seed of the option order and of stochastic strategies (with the match and round). */
  readonly seed: number;
}
