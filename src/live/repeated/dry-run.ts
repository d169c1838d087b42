/**
 * What a repeated run will cost before it runs: one call per decision not yet stored (Σ matches ×
 * rounds × LLM seats in all), each estimated from the prompt it would send — the stored history
 * where the store has it, mutual cooperation for the rounds not yet played — so input tokens grow
 * with the round as the history does.
 */
import type { Action } from '../../core/games.js';
import type { Design } from '../design/types.js';
import { planRun, type Prices, type RunPlan } from '../runner/plan.js';
import type { StoredMove } from '../store/store.js';
import type { TrialSpec } from '../types.js';
import { decisionSpec, llmSeats, planMatches } from './plan.js';
import type { PlayedRound } from './prompt.js';
import { matchState, movesByMatch } from './state.js';

export interface RepeatedPlan extends RunPlan {
  readonly matches: number;
  readonly rounds: number;
}

export function planRepeated(design: Design, moves: readonly StoredMove[], prices: (s: TrialSpec) => Prices | undefined): RepeatedPlan {
  const stored = movesByMatch(moves);
  const rounds = design.play!.rounds;
  const specs: TrialSpec[] = [];
  let done = 0;
  const plans = planMatches(design);
  for (const m of plans) {
    const got = stored.get(m.match);
    const history: PlayedRound[] = [...matchState(design, m, got).history];
    const cc: readonly [Action, Action] = ['C', 'C'];
    while (history.length < rounds) history.push({ moves: cc });
    for (let t = 1; t <= rounds; t++) {
      for (const seat of llmSeats(m)) {
        if (got?.has(`${t}:${seat}`)) { done++; continue; }
        specs.push(decisionSpec(design, m, seat, t, history.slice(0, t - 1)));
      }
    }
  }
  const p = planRun(specs, () => false, prices);
  return { ...p, total: p.total + done, stored: done, matches: plans.length, rounds };
}
