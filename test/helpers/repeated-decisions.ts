/**
 * A seeded generator of repeated-play decisions (RepeatedDecisions, as a repeated store or a
 * published log gives them): reactive players whose cooperation depends on the other's previous
 * move (and on the framing), against fixed strategies and themselves, every decision with a
 * prompt and an answer for the match browser.
 */
import type { Action } from '../../src/core/games.js';
import type { RepeatedDecision, RepeatedDecisions } from '../../src/core/decisions.js';
import { streamFor, type RandomSource } from '../../src/stats/rng.js';

/** A reactive player: P(C) in round 1, after the other cooperated, after the other defected. */
export interface Reactive { readonly first: number; readonly afterC: number; readonly afterD: number }

export interface GenerateOptions {
  readonly seed?: number;
  readonly models?: readonly string[];
  readonly games?: readonly string[];
  readonly framings?: readonly string[];
  /** 'self', or a fixed strategy: always-cooperate, always-defect, tit-for-tat, alternate. */
  readonly opponents?: readonly string[];
  readonly matches?: number;
  readonly rounds?: number;
  /** The player of a model under a framing (default: framing index i adds 0.25·i to every probability, capped). */
  readonly player?: (model: string, framing: string, framingIndex: number) => Reactive;
  /** Every nth decision invalid (action null), 0 for none. */
  readonly invalidEvery?: number;
  readonly prompts?: boolean;
}

function fixedMove(strategy: string, round: number, otherPrev: Action | undefined): Action {
  switch (strategy) {
    case 'always-cooperate': return 'C';
    case 'always-defect': return 'D';
    case 'tit-for-tat': return otherPrev ?? 'C';
    case 'alternate': return round % 2 === 1 ? 'C' : 'D';
    default: throw new Error(`unknown strategy ${strategy}`);
  }
}

function reactiveMove(p: Reactive, otherPrev: Action | undefined, rng: RandomSource): Action {
  const q = otherPrev === undefined ? p.first : otherPrev === 'C' ? p.afterC : p.afterD;
  return rng.next() < q ? 'C' : 'D';
}

const defaultPlayer = (model: string, _f: string, i: number): Reactive => {
  const base = model.length % 2 === 0 ? { first: 0.7, afterC: 0.8, afterD: 0.2 } : { first: 0.5, afterC: 0.6, afterD: 0.4 };
  const up = (x: number) => Math.min(0.95, x + 0.25 * i);
  return { first: up(base.first), afterC: up(base.afterC), afterD: up(base.afterD) };
};

/** One match: both seats' moves per round; seat 2 is the opponent (a second reactive seat for self). */
function playMatch(p: Reactive, opponent: string, rounds: number, rng: RandomSource): [Action, Action][] {
  const moves: [Action, Action][] = [];
  for (let r = 1; r <= rounds; r++) {
    const prev = moves[r - 2];
    const a = reactiveMove(p, prev?.[1], rng);
    const b = opponent === 'self' ? reactiveMove(p, prev?.[0], rng) : fixedMove(opponent, r, prev?.[0]);
    moves.push([a, b]);
  }
  return moves;
}

export function generateDecisions(o: GenerateOptions = {}): RepeatedDecisions {
  const models = o.models ?? ['model-a', 'model-bb'];
  const games = o.games ?? ['prisoners-dilemma'];
  const framings = o.framings ?? ['business', 'friend-sharing'];
  const opponents = o.opponents ?? ['self', 'always-defect', 'tit-for-tat'];
  const matches = o.matches ?? 8, rounds = o.rounds ?? 10, seed = o.seed ?? 1;
  const player = o.player ?? defaultPlayer;
  const decisions: RepeatedDecision[] = [];
  let count = 0;
  for (const model of models) for (const game of games) for (const [fi, framing] of framings.entries()) for (const opponent of opponents) {
    const rng = streamFor(seed, JSON.stringify([model, game, framing, opponent]));
    const p = player(model, framing, fi);
    for (let k = 0; k < matches; k++) {
      const match = `${model}|${game}|${framing}|${opponent}|${k + 1}`;
      const moves = playMatch(p, opponent, rounds, rng);
      const seats = opponent === 'self' ? [1, 2] : [1];
      moves.forEach(([a, b], i) => {
        for (const seat of seats) {
          count++;
          const invalid = o.invalidEvery ? count % o.invalidEvery === 0 : false;
          const own = seat === 1 ? a : b, other = seat === 1 ? b : a;
          decisions.push({
            model, game, framing, opponent: opponent === 'self' ? model : opponent, match, round: i + 1, seat,
            action: invalid ? null : own, opponentAction: other,
            ...(o.prompts === false ? {} : { prompt: `Round ${i + 1} of match ${k + 1} (${framing}). Choose J or F.`, answer: invalid ? '???' : own === 'C' ? 'J' : 'F' }),
          });
        }
      });
    }
  }
  return { path: 'generated.sqlite', sha256: '0'.repeat(64), kind: 'generated repeated run', synthetic: true, decisions };
}

/** The decisions as the reference script reads them: one CSV row per decision, an invalid action empty. */
export function decisionsCsv(decisions: readonly RepeatedDecision[]): string {
  const head = 'model,game,framing,opponent,match,round,seat,action,opponent_action';
  const rows = decisions.map((d) => [d.model, d.game, d.framing, d.opponent, d.match, d.round, d.seat, d.action ?? '', d.opponentAction ?? ''].join(','));
  return `${[head, ...rows].join('\n')}\n`;
}
