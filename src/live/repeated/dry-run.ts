/**
 * What a repeated run will cost before it runs: one call per decision not yet stored (Σ matches ×
 * rounds × LLM seats in all), each estimated from the prompt it would send — the stored history
 * where the store has it, mutual cooperation for the rounds not yet played — so input tokens grow
 * with the round as the history does.
 */
import type { Action } from '../../core/games.js';
import type { Design } from '../design/types.js';
import { planRun, type Prices, type RunPlan } from '../runner/plan.js';
import { planBatchRun, type BatchPlan } from '../batch/dry-run.js';
import { BATCH_LIMITS, type BatchLimits } from '../batch/chunks.js';
import type { StoredMove } from '../store/store.js';
import type { TrialSpec } from '../types.js';
import { byModel } from './batch.js';
import { decisionSpec, llmSeats, planMatches } from './plan.js';
import type { PlayedRound } from './prompt.js';
import { matchState, movesByMatch } from './state.js';

export interface RepeatedPlan extends RunPlan {
  readonly matches: number;
  readonly rounds: number;
}

/** The decisions of the design not yet stored, each with the prompt it would send, and how many are stored. */
function pendingSpecs(design: Design, moves: readonly StoredMove[]): { specs: TrialSpec[]; stored: number; matches: number } {
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
  return { specs, stored: done, matches: plans.length };
}

export function planRepeated(design: Design, moves: readonly StoredMove[], prices: (s: TrialSpec) => Prices | undefined): RepeatedPlan {
  const { specs, stored, matches } = pendingSpecs(design, moves);
  const p = planRun(specs, () => false, prices);
  return { ...p, total: p.total + stored, stored, matches, rounds: design.play!.rounds };
}

export interface RepeatedBatchPlan extends BatchPlan {
  readonly matches: number;
  readonly rounds: number;
}

/**
 * The batch dry run of a repeated design (`run --batch --dry-run`): the one-shot batch plan
 * (src/live/batch/dry-run.ts: batch prices, the design's discount) of each round's pending
 * decisions — the rounds go out one after another, each round its own files — summed over rounds.
 */
export function planRepeatedBatch(design: Design, moves: readonly StoredMove[], inOpen: ReadonlySet<string>,
  prices: (s: TrialSpec) => Prices | undefined, limits: BatchLimits = BATCH_LIMITS): RepeatedBatchPlan {
  const { specs, stored, matches } = pendingSpecs(design, moves);
  const byRound = new Map<number, TrialSpec[]>();
  for (const s of specs) {
    const list = byRound.get(s.play!.round);
    if (list) list.push(s); else byRound.set(s.play!.round, [s]);
  }
  let total = stored, inBatches = 0, files = 0, lines = 0, inputTokens = 0, outputTokens = 0, cost: number | undefined = 0;
  for (const round of [...byRound.keys()].sort((a, b) => a - b)) {
    const p = planBatchRun(byModel(design, byRound.get(round)!), () => false, inOpen, prices, limits);
    total += p.total; inBatches += p.inBatches; files += p.files; lines += p.lines; inputTokens += p.inputTokens; outputTokens += p.outputTokens;
    cost = cost === undefined || p.cost === undefined ? undefined : cost + p.cost;
  }
  return { total, stored, inBatches, files, lines, inputTokens, outputTokens, ...(cost === undefined ? {} : { cost }), matches, rounds: design.play!.rounds };
}
