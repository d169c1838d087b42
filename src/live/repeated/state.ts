/**
 * A match's state as the store holds it: the rounds both seats completed (the history every later
 * prompt is built from), and what is left to ask. The match engine and the round batches both start
 * from it, so a killed run resumes each match exactly where it stopped.
 */
import type { Action } from '../../core/games.js';
import type { Design } from '../design/types.js';
import type { StoredMove } from '../store/store.js';
import type { TrialSpec } from '../types.js';
import { decisionSpec, llmSeats, strategyMove, type MatchPlan } from './plan.js';
import type { PlayedRound } from './prompt.js';

export type MatchStatus = 'open' | 'complete' | 'forfeit';

export interface MatchState {
  readonly plan: MatchPlan;
  readonly history: PlayedRound[];
  status: MatchStatus;
}

/** Stored moves by match, then by `${round}:${seat}`: completed decisions only (ok or invalid). */
export function movesByMatch(moves: readonly StoredMove[]): Map<number, Map<string, Action | null>> {
  const out = new Map<number, Map<string, Action | null>>();
  for (const m of moves) {
    if (m.status === 'error') continue;
    let byRound = out.get(m.match);
    if (!byRound) { byRound = new Map(); out.set(m.match, byRound); }
    byRound.set(`${m.round}:${m.seat}`, m.status === 'ok' ? m.action : null);
  }
  return out;
}

/** Replay the stored rounds of a match: its history so far and whether it is over. */
export function matchState(design: Design, plan: MatchPlan, stored: ReadonlyMap<string, Action | null> | undefined): MatchState {
  const s: MatchState = { plan, history: [], status: 'open' };
  const play = design.play!;
  for (let t = 1; t <= play.rounds; t++) {
    const a1 = stored?.get(`${t}:1`);
    const a2 = plan.seat2.kind === 'model' ? stored?.get(`${t}:2`) : strategyMove(play, plan.seat2, plan.match, t, s.history);
    if (a1 === undefined || a2 === undefined) return s;
    if (!advance(design, s, [a1, a2])) return s;
  }
  return s;
}

/** Add a round's two moves (null: invalid); false when the match is over. */
export function advance(design: Design, s: MatchState, moves: readonly [Action | null, Action | null]): boolean {
  if (moves[0] === null || moves[1] === null) { s.status = 'forfeit'; return false; }
  s.history.push({ moves: [moves[0], moves[1]] });
  if (s.history.length >= design.play!.rounds) { s.status = 'complete'; return false; }
  return true;
}

/** The next round of an open match: its number and the specs of the LLM seats not yet stored. */
export function nextRound(design: Design, s: MatchState, stored: ReadonlyMap<string, Action | null> | undefined): { round: number; specs: TrialSpec[] } {
  const { round, seats } = nextSeats(s, stored);
  return { round, specs: seats.map((seat) => decisionSpec(design, s.plan, seat, round, s.history)) };
}

/** The LLM seats of a match's next round not yet stored (what nextRound renders). */
export function nextSeats(s: MatchState, stored: ReadonlyMap<string, Action | null> | undefined): { round: number; seats: (1 | 2)[] } {
  const round = s.history.length + 1;
  return { round, seats: llmSeats(s.plan).filter((seat) => stored?.get(`${round}:${seat}`) === undefined) };
}
