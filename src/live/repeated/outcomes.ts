/**
 * What a stored decision of a repeated game led to: the other seat's move in the same round (a
 * fixed strategy's move as stored with the decision, or the other model's stored answer) and this
 * seat's payoff, from the game of the run's design as stored with the run. Export and the
 * repeated-store reader (src/sources/repeated-store.ts) both read outcomes through this.
 */
import type { Action, Game } from '../../core/games.js';
import type { RunInfo, TrialStore } from '../store/store.js';
import { storedDesign } from '../store/stored-design.js';
import type { TrialRecord } from '../types.js';
import { seatGame } from './prompt.js';

export interface PlayOutcome {
  readonly opponentAction: Action | null;
  readonly payoff: number | null;
}

export class RunPlays {
  private constructor(private readonly games: ReadonlyMap<string, Game>, private readonly moves: ReadonlyMap<string, Action | null>) {}

  /** The run's games (as its stored design resolved them: a damaged one is StoreFault) and stored moves. */
  static read(store: TrialStore, run: RunInfo): RunPlays {
    const games = (storedDesign(run).games ?? []).filter((g): g is Game => typeof g !== 'string' && g.id !== undefined && g.payoffs !== undefined);
    const moves = new Map<string, Action | null>();
    for (const m of store.playMoves(run.id)) moves.set(`${m.match}:${m.round}:${m.seat}`, m.status === 'ok' ? m.action : null);
    return new RunPlays(new Map(games.map((g) => [g.id, g])), moves);
  }

  outcome(t: TrialRecord): PlayOutcome {
    const p = t.play;
    if (!p) return { opponentAction: null, payoff: null };
    const other = p.opponentMove ?? this.moves.get(`${p.match}:${p.round}:${3 - p.seat}`) ?? null;
    const game = this.games.get(t.game);
    const payoff = game && t.status === 'ok' && t.action && other ? seatGame(game, p.seat).payoffs[t.action][other][0] : null;
    return { opponentAction: other, payoff };
  }
}
