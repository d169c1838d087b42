/**
 * What a repeated run will cost before it runs: one call per decision not yet stored (Σ matches ×
 * rounds × LLM seats in all), each estimated from the prompt it would send — the stored history
 * where the store has it, mutual cooperation for the rounds not yet played — so input tokens grow
 * with the round as the history does. The prompts' lengths are counted, not rendered: memory stays
 * bounded at any `play.rounds`, and so is the batch plan's (each line's size counted the same way).
 * `only` keeps some matches (an adaptive design's: reps below its max_trials); the design's matches (planMatches) are
 * planned once by the caller that has them.
 */
import type { Action } from '../../core/games.js';
import type { Design } from '../design/types.js';
import { estimateOutputTokens, inputTokensOf, type Prices, type RunPlan } from '../runner/plan.js';
import type { BatchPlan } from '../batch/dry-run.js';
import { DEFAULT_BATCH_DISCOUNT } from '../batch/collect.js';
import { BATCH_LIMITS, batchLine, ChunkSplitter, trialKey, type BatchLimits } from '../batch/chunks.js';
import type { StoredMove } from '../store/store.js';
import type { TrialSpec } from '../types.js';
import { decisionSpec, llmSeats, planMatches, type MatchPlan } from './plan.js';
import { JSON_BYTES, PromptLengths } from './prompt-length.js';
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
export function planRepeated(design: Design, moves: readonly StoredMove[], prices: (s: TrialSpec) => Prices | undefined,
  only: (m: MatchPlan) => boolean = () => true, all: readonly MatchPlan[] = planMatches(design)): RepeatedPlan {
  const stored = movesByMatch(moves);
  const rounds = design.play!.rounds;
  const t = { total: 0, stored: 0, inputTokens: 0, outputTokens: 0, cost: 0, priced: true };
  const plans = all.filter(only);
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

/** The decisions stored (answered or invalid) of the matches `only` keeps, counted from the stored moves alone. */
export function storedDecisions(plans: readonly MatchPlan[], moves: readonly StoredMove[], only: (m: MatchPlan) => boolean): number {
  const kept = new Set(plans.filter(only).map((m) => m.match));
  return moves.filter((m) => m.status !== 'error' && kept.has(m.match)).length;
}

export interface RepeatedBatchPlan extends BatchPlan {
  readonly matches: number;
  readonly rounds: number;
}

/** A seat of a match as the batch dry run counts it: its probe spec, its prompt lengths in characters and JSON bytes, the lines so far. */
interface CountedSeat {
  readonly m: MatchPlan; readonly seat: 1 | 2; readonly probe: TrialSpec; readonly history: readonly PlayedRound[];
  readonly got: ReadonlyMap<string, Action | null> | undefined;
  readonly chars: PromptLengths; readonly bytes: PromptLengths;
  lines: number; lineBytes: number;
}

function countedSeats(design: Design, moves: readonly StoredMove[], only: (m: MatchPlan) => boolean, all: readonly MatchPlan[]): { seats: CountedSeat[];
  matches: number } {
  const stored = movesByMatch(moves);
  const plans = all.filter(only);
  const seats = plans.flatMap((m) => {
    const got = stored.get(m.match);
    const history = assumedHistory(design, m, got);
    return llmSeats(m).map((seat): CountedSeat => ({
      m, seat, probe: decisionSpec(design, m, seat, 1, []), history, got, lines: 0, lineBytes: 0,
      chars: new PromptLengths(design.play!, m, seat), bytes: new PromptLengths(design.play!, m, seat, JSON_BYTES),
    }));
  });
  // One file per model and round, in the design's model order (as the run groups them: byModel).
  const order = new Map(design.models.map((x, i) => [x.id, i]));
  seats.sort((a, b) => order.get(a.probe.model.id)! - order.get(b.probe.model.id)!);
  return { seats, matches: plans.length };
}

/**
 * The batch dry run of a repeated design (`run --batch --dry-run`): each round's pending decisions
 * in their own files (ChunkSplitter, as the run splits them), each line's size and each prompt's
 * tokens counted without rendering its history; priced at the batch rates (the design's prices
 * less its discount). Memory and time per decision stay constant at any `play.rounds`.
 */
export function planRepeatedBatch(design: Design, moves: readonly StoredMove[], inOpen: ReadonlySet<string>,
  prices: (s: TrialSpec) => (Prices & { readonly batchDiscount?: number }) | undefined, limits: BatchLimits = BATCH_LIMITS,
  only: (m: MatchPlan) => boolean = () => true, all: readonly MatchPlan[] = planMatches(design)): RepeatedBatchPlan {
  const { seats, matches } = countedSeats(design, moves, only, all);
  const rounds = design.play!.rounds;
  const t = { total: 0, stored: 0, inBatches: 0, files: 0, lines: 0, inputTokens: 0, outputTokens: 0, cost: 0 as number | undefined };
  for (let r = 1; r <= rounds; r++) {
    const split = new ChunkSplitter(limits);
    for (const c of seats) {
      t.total++;
      if (c.got?.has(`${r}:${c.seat}`)) t.stored++;
      else countBatchLine(c, r, decisionSpec(design, c.m, c.seat, r, []), { inOpen, prices, split, t });
      c.lines += c.chars.line(r, c.history[r - 1]);
      c.lineBytes += c.bytes.line(r, c.history[r - 1]);
    }
    t.files += split.files;
  }
  return { total: t.total, stored: t.stored, inBatches: t.inBatches, files: t.files, lines: t.lines, inputTokens: t.inputTokens, outputTokens: t.outputTokens,
    ...(t.cost === undefined ? {} : { cost: t.cost }), matches, rounds };
}

/** One pending decision of round `r` (its spec rendered without history): in an open batch, or a line of the round's files. */
function countBatchLine(c: CountedSeat, r: number, spec: TrialSpec, o: {
  inOpen: ReadonlySet<string>; prices: (s: TrialSpec) => (Prices & { readonly batchDiscount?: number }) | undefined; split: ChunkSplitter;
  t: { inBatches: number; lines: number; inputTokens: number; outputTokens: number; cost: number | undefined };
}): void {
  if (o.inOpen.has(trialKey(spec))) { o.t.inBatches++; return; }
  o.split.add(spec, Buffer.byteLength(batchLine(spec).line) + c.bytes.historyPart(r, c.lineBytes));
  const input = inputTokensOf((spec.system?.length ?? 0) + spec.prompt.length + c.chars.historyPart(r, c.lines));
  const out = estimateOutputTokens(spec);
  o.t.lines++;
  o.t.inputTokens += input;
  o.t.outputTokens += out;
  const p = o.prices(c.probe);
  o.t.cost = o.t.cost === undefined || p === undefined ? undefined : o.t.cost + ((input * p.input + out * p.output) / 1e6) * (1 - (p.batchDiscount ??
    DEFAULT_BATCH_DISCOUNT));
}
