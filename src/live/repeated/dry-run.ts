/**
 * What a repeated run will cost before it runs: one call per decision not yet stored (Σ matches ×
 * rounds × LLM seats in all), each estimated from the prompt it would send — the stored history
 * where the store has it, mutual cooperation for the rounds not yet played — so input tokens grow
 * with the round as the history does. The prompts' lengths are counted, not rendered: memory stays
 * bounded at any `play.rounds` (the batch plan renders one round's requests at a time).
 */
import type { Action } from '../../core/games.js';
import type { Design } from '../design/types.js';
import { estimateOutputTokens, inputTokensOf, type Prices, type RunPlan } from '../runner/plan.js';
import { planBatchRun, type BatchPlan } from '../batch/dry-run.js';
import { BATCH_LIMITS, type BatchLimits } from '../batch/chunks.js';
import type { StoredMove } from '../store/store.js';
import type { TrialSpec } from '../types.js';
import { byModel } from './batch.js';
import { decisionSpec, llmSeats, planMatches, type MatchPlan } from './plan.js';
import { PromptLengths } from './prompt-length.js';
import type { PlayedRound } from './prompt.js';
import { matchState, movesByMatch } from './state.js';

export interface RepeatedPlan extends RunPlan {
  readonly matches: number;
  readonly rounds: number;
}

/** The rounds of a match as the dry run assumes them: those stored, then mutual cooperation. */
function assumedHistory(design: Design, m: MatchPlan, got: ReadonlyMap<string, Action | null> | undefined): PlayedRound[] {
  const history: PlayedRound[] = [...matchState(design, m, got).history];
  const cc: readonly [Action, Action] = ['C', 'C'];
  while (history.length < design.play!.rounds) history.push({ moves: cc });
  return history;
}

/**
 * The plan of a repeated design's pending decisions, counted decision by decision without
 * rendering a history (prompt-length.ts): memory bounded by one match's rounds, whatever
 * `play.rounds` is.
 */
export function planRepeated(design: Design, moves: readonly StoredMove[], prices: (s: TrialSpec) => Prices | undefined): RepeatedPlan {
  const stored = movesByMatch(moves);
  const rounds = design.play!.rounds;
  const t = { total: 0, stored: 0, inputTokens: 0, outputTokens: 0, cost: 0, priced: true };
  const plans = planMatches(design);
  for (const m of plans) {
    const got = stored.get(m.match);
    const history = assumedHistory(design, m, got);
    for (const seat of llmSeats(m)) {
      const probe = decisionSpec(design, m, seat, 1, []);
      const lengths = new PromptLengths(design.play!, m, seat);
      const out = estimateOutputTokens(probe);
      const p = probe.model.provider === 'simulated' ? null : prices(probe);
      let lines = 0;
      for (let r = 1; r <= rounds; r++) {
        t.total++;
        if (got?.has(`${r}:${seat}`)) t.stored++;
        else {
          const input = inputTokensOf((probe.system?.length ?? 0) + lengths.promptLength(r, lines));
          t.inputTokens += input;
          t.outputTokens += out;
          if (p === undefined) t.priced = false;
          else if (p !== null) t.cost += (input * p.input + out * p.output) / 1e6;
        }
        lines += lengths.line(r, history[r - 1]);
      }
    }
  }
  return { total: t.total, stored: t.stored, calls: t.total - t.stored, inputTokens: t.inputTokens, outputTokens: t.outputTokens,
    ...(t.priced ? { cost: t.cost } : {}), matches: plans.length, rounds };
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
  const stored = movesByMatch(moves);
  const rounds = design.play!.rounds;
  const plans = planMatches(design);
  const histories = plans.map((m) => assumedHistory(design, m, stored.get(m.match)));
  let total = 0, done = 0, inBatches = 0, files = 0, lines = 0, inputTokens = 0, outputTokens = 0, cost: number | undefined = 0;
  // One round's specs at a time: the rounds go out one after another, each its own files.
  for (let r = 1; r <= rounds; r++) {
    const specs: TrialSpec[] = [];
    plans.forEach((m, i) => {
      for (const seat of llmSeats(m)) {
        if (stored.get(m.match)?.has(`${r}:${seat}`)) { done++; continue; }
        specs.push(decisionSpec(design, m, seat, r, histories[i].slice(0, r - 1)));
      }
    });
    if (specs.length === 0) continue;
    const p = planBatchRun(byModel(design, specs), () => false, inOpen, prices, limits);
    total += p.total; inBatches += p.inBatches; files += p.files; lines += p.lines; inputTokens += p.inputTokens; outputTokens += p.outputTokens;
    cost = cost === undefined || p.cost === undefined ? undefined : cost + p.cost;
  }
  return { total: total + done, stored: done, inBatches, files, lines, inputTokens, outputTokens, ...(cost === undefined ? {} : { cost }), matches: plans.length, rounds };
}
