/**
 * Repeated games through the Batch API: round t of every open match is one batch (one file per
 * model, as the API requires), then round t+1 from the stored answers, and so on — as many rounds
 * of batches as the design has rounds, whatever the number of matches. Each round is a batch run
 * of src/live/batch/ (every step committed before the next call), and its specs are rebuilt from
 * the store (state.ts): the prompts depend only on (design, seed, stored history), so a killed run
 * re-finds its open chunks by their members, and a batch run stores the same matches as a
 * synchronous one against the same deterministic server. A round sends and collects decisions only: comprehension probes,
 * this run's or an earlier run's left in open chunks, are collected before the rounds (commands/run-probes.ts, batchProbes).
 */
import type { Design } from '../design/types.js';
import { runBatches, type BatchRunOptions, type BatchSummary } from '../batch/run.js';
import type { TrialSpec } from '../types.js';
import { planMatches, type MatchPlan } from './plan.js';
import { matchState, movesByMatch, nextRound, nextSeats } from './state.js';

export interface MatchBatchOptions extends Omit<BatchRunOptions, 'specs'> {
  readonly design: Design;
  /** Play only these matches (by number): an adaptive run's wave (src/live/adaptive/). All when absent. */
  readonly only?: ReadonlySet<number>;
}

/** What the rounds stored (decisions: a round's batch run leaves probe chunks to the run's probe phase). */
export interface MatchBatchSummary extends Omit<BatchSummary, 'earlier' | 'earlierStored'> {
  /** Rounds of batches this session sent or collected. */
  readonly rounds: number;
  readonly matches: number;
  readonly matchesOpen: number;
  readonly forfeited: number;
}

/** Decisions grouped by model in the design's order (stable: match order within a model), so each model's are one file. */
export function byModel(design: Design, specs: TrialSpec[]): TrialSpec[] {
  const order = new Map(design.models.map((m, i) => [m.id, i]));
  return specs.sort((a, b) => order.get(a.model.id)! - order.get(b.model.id)!);
}

/** The matches of a run (of `only`) and their states from the stored moves (`plans`: the design's matches, when already planned). */
function matchStates(design: Design, o: Pick<MatchBatchOptions, 'store' | 'runId' | 'only'> & { plans?: readonly MatchPlan[] }) {
  const stored = movesByMatch(o.store.playMoves(o.runId));
  const states = (o.plans ?? planMatches(design)).filter((p) => o.only?.has(p.match) ?? true).map((p) => matchState(design, p, stored.get(p.match)));
  return { stored, states, open: states.filter((s) => s.status === 'open'), forfeited: states.filter((s) => s.status === 'forfeit').length };
}

/** The decisions of the next round of every open match, grouped by model (one file per model). */
export function frontierSpecs(design: Design, o: Pick<MatchBatchOptions, 'store' | 'runId' | 'only'> & { plans?: readonly MatchPlan[] }): {
  specs: TrialSpec[]; open: number; forfeited: number; matches: number } {
  const { stored, states, open, forfeited } = matchStates(design, o);
  const specs = open.flatMap((s) => nextRound(design, s, stored.get(s.plan.match)).specs);
  return { specs: byModel(design, specs), open: open.length, forfeited, matches: states.length };
}

export async function runMatchBatches(o: MatchBatchOptions): Promise<MatchBatchSummary> {
  let rounds = 0, stored = 0, created = 0, tokens = 0, alreadyDone = -1;
  let last: BatchSummary | undefined;
  o.store.preparePlay();
  // The matches planned once; each round's frontier read from the store.
  const plans = planMatches(o.design);
  let f = frontierSpecs(o.design, { ...o, plans });
  let stale = false;
  while (f.specs.length > 0) {
    // Without the design: an earlier run's probes left in open chunks are the probe phase's (commands/run-probes.ts), never a round's.
    const r = await runBatches({ ...o, design: undefined, specs: f.specs });
    rounds++;
    if (alreadyDone < 0) alreadyDone = r.alreadyDone;
    stored += r.stored;
    created += r.created;
    tokens += r.tokens;
    last = r;
    // Submitted without waiting, stopped, or a round that stored nothing: a later run goes on from the store.
    if (!o.wait || o.stop?.aborted || r.open > 0 || r.stored === 0 || r.pending > 0) { stale = true; break; }
    f = frontierSpecs(o.design, { ...o, plans });
  }
  // A round that ended the loop leaves `f` as it was before it: the matches' states read again, their next round counted, not rendered.
  const end = stale ? matchStates(o.design, { ...o, plans }) : undefined;
  const now = end ? { left: end.open.reduce((n, s) => n + nextSeats(s, end.stored.get(s.plan.match)).seats.length, 0), open: end.open.length,
    forfeited: end.forfeited, matches: end.states.length } : { left: f.specs.length, open: f.open, forfeited: f.forfeited, matches: f.matches };
  return {
    total: now.left + stored, alreadyDone: Math.max(0, alreadyDone), stored, pending: last?.pending ?? 0, open: last?.open ?? 0,
    created, tokens, rounds, matches: now.matches, matchesOpen: now.open, forfeited: now.forfeited,
  };
}
