/**
 * The matches of a repeated design, in a fixed order (model, game, framing, opponent, rep), each
 * numbered 1, 2, … in the run, and the trial spec of one decision. A decision's trial key is the
 * store's (model, game, framing, rep) with rep = ((match − 1) · rounds + round − 1) · 2 + seat − 1:
 * a bijection onto (match, round, seat) within a run, so the one-shot machinery (completion,
 * resume, batch custom ids) applies unchanged, and the store keeps (opponent, match, round, seat)
 * in their own columns beside it.
 */
import type { Action, Game } from '../../core/games.js';
import { streamFor } from '../../stats/rng.js';
import { modelSpec } from '../design/models.js';
import type { Design, DesignModel } from '../design/types.js';
import type { Framing } from '../prompts/index.js';
import type { TrialSpec } from '../types.js';
import { roundPrompt, seatGame, type PlayedRound } from './prompt.js';
import { STRATEGIES } from './strategies.js';
import type { OpponentSpec, PlaySpec } from './types.js';

export type StrategySeat = Extract<OpponentSpec, { kind: 'strategy' }>;

export interface MatchPlan {
  /** 1-based, unique in the run. */
  readonly match: number;
  /** The match's number within its model × game × framing × opponent cell, 0 … trials − 1 (an adaptive run's unit of sampling). */
  readonly rep: number;
  readonly game: Game;
  readonly framing: Framing;
  readonly seat1: DesignModel;
  /** The model of seat 2, or the fixed strategy playing it. */
  readonly seat2: { readonly kind: 'model'; readonly model: DesignModel } | StrategySeat;
  /** The opponent as recorded in seat 1's rows (seat 2's rows record seat 1's model id). */
  readonly opponent: string;
}

/** The seats of a match that are LLM calls. */
export function llmSeats(m: MatchPlan): (1 | 2)[] {
  return m.seat2.kind === 'model' ? [1, 2] : [1];
}

export function repOf(play: Pick<PlaySpec, 'rounds'>, match: number, round: number, seat: 1 | 2): number {
  return ((match - 1) * play.rounds + (round - 1)) * 2 + (seat - 1);
}

/** Every match of a repeated design. */
export function planMatches(design: Design): MatchPlan[] {
  const play = design.play!;
  const out: MatchPlan[] = [];
  let n = 0;
  for (const m of design.models) {
    for (const game of design.games) {
      for (const framing of design.framings) {
        for (const o of play.opponents) {
          if (o.kind === 'model' && o.id === m.id) continue; // a model against itself is `self`
          const seat2 = o.kind === 'strategy' ? o : { kind: 'model' as const, model: o.kind === 'self' ? m : design.models.find((x) => x.id === o.id)! };
          const opponent = o.kind === 'self' ? m.id : o.id;
          for (let rep = 0; rep < design.trials; rep++) out.push({ match: ++n, rep, game, framing, seat1: m, seat2, opponent });
        }
      }
    }
  }
  return out;
}

/** Decisions (LLM calls) of a repeated design: Σ matches × rounds × LLM seats (over its plans, when already made). */
export function decisionCount(design: Design, plans: readonly MatchPlan[] = planMatches(design)): number {
  return plans.reduce((s, m) => s + llmSeats(m).length * design.play!.rounds, 0);
}

/** The fixed strategy's move in round `round` (1-based) given the rounds before it (seat 2's view). */
export function strategyMove(play: PlaySpec, s: StrategySeat, match: number, round: number, history: readonly PlayedRound[]): Action {
  const u = STRATEGIES[s.strategy].stochastic ? streamFor(play.seed, `strategy\u0000${match}\u0000${round}`).next() : 0.5;
  return STRATEGIES[s.strategy].move({ own: history.map((h) => h.moves[1]), other: history.map((h) => h.moves[0]) }, s.params, u);
}

/** The stored factors of a seat's decision: with personas, `persona` = own-other ids ("none": no persona, or a fixed strategy). */
export function personaFactors(play: PlaySpec, m: MatchPlan, seat: 1 | 2): Readonly<Record<string, string>> {
  if (play.personaIds === undefined) return {};
  const id = (s: 1 | 2) => (s === 2 && m.seat2.kind === 'strategy' ? undefined : play.personaIds![s - 1]) ?? 'none';
  return { persona: `${id(seat)}-${id(seat === 1 ? 2 : 1)}` };
}

/** The trial spec of one seat's decision in round `round`, from the rounds stored before it. */
export function decisionSpec(design: Design, m: MatchPlan, seat: 1 | 2, round: number, history: readonly PlayedRound[]): TrialSpec {
  const play = design.play!;
  const model = seat === 1 ? m.seat1 : (m.seat2 as { model: DesignModel }).model;
  const r = roundPrompt({ play, game: m.game, framing: m.framing, seat, match: m.match, round, history });
  const otherLast = history.length === 0 ? undefined : history[history.length - 1].moves[2 - seat];
  return {
    model: modelSpec(model), game: m.game.id, framing: m.framing.id, rep: repOf(play, m.match, round, seat), factors: personaFactors(play, m, seat),
    ...(r.system === undefined ? {} : { system: r.system }),
    prompt: r.prompt, labels: r.labels, actionWords: r.actionWords, decoding: model.decoding, scoring: design.scoring,
    context: { game: seatGame(m.game, seat), framing: m.framing.id, factors: {}, ...(otherLast === undefined ? {} : { otherLast }) },
    play: {
      opponent: seat === 1 ? m.opponent : m.seat1.id, match: m.match, round, seat,
      opponentMove: m.seat2.kind === 'strategy' ? strategyMove(play, m.seat2, m.match, round, history) : null,
    },
  };
}
