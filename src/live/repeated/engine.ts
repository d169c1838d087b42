/**
 * The match engine: every open match of a repeated design played at once, its rounds one after
 * another. Moves are simultaneous — both seats of round t are asked, concurrently, from rounds
 * 1 … t−1 only. Calls share the one-shot runner's limits (adaptive concurrency, requests and tokens
 * per minute, retries with backoff: src/live/runner/runner.ts), and every decision is committed to
 * the store before the match goes on, so a run killed at any moment resumes each match where it
 * stopped (state.ts), never requesting a stored decision again. An invalid answer follows the
 * design's rule: asked again up to N times, then (or at once, `forfeit`) the round is stored
 * invalid and the match stops.
 */
import type { Action } from '../../core/games.js';
import { silentLogger } from '../../core/logger.js';
import { runMsg } from '../../core/messages/run.js';
import type { Design } from '../design/types.js';
import { Progress } from '../runner/progress.js';
import { attempt, endRun, runContext, type CallOptions, type RunContext, type RunSummary } from '../runner/runner.js';
import type { StoredMove } from '../store/store.js';
import type { TrialRecord, TrialSpec } from '../types.js';
import { decisionCount, planMatches, strategyMove, type MatchPlan } from './plan.js';
import { advance, matchState, movesByMatch, nextRound, type MatchState } from './state.js';

export interface MatchRunOptions extends CallOptions {
  readonly design: Design;
  /** Play only these matches (by number): an adaptive run's wave (src/live/adaptive/). All when absent. */
  readonly only?: ReadonlySet<number>;
  /** The run's stored moves, when the caller has just read them (an adaptive wave's look): not read again. */
  readonly moves?: readonly StoredMove[];
  /** The design's matches, when the caller has planned them already (an adaptive run's waves): not planned again. */
  readonly plans?: readonly MatchPlan[];
  /** Told once the store has been read: matches in all and already over, decisions planned and already stored. */
  readonly onStart?: (s: { matches: number; matchesDone: number; decisions: number; stored: number }) => void;
}

/** A run's summary (the runner's: decisions by status, calls, tokens, outcome) with its matches. */
export interface MatchRunSummary extends RunSummary {
  readonly matches: number;
  /** Matches over (all rounds played, or forfeited) at the end. */
  readonly matchesDone: number;
  readonly forfeited: number;
}

interface Shared {
  readonly c: RunContext;
  readonly design: Design;
  readonly progress: Progress;
  matchesDone: number;
  forfeited: number;
  /** Rounds played (both seats stored) over all matches. */
  roundsDone: number;
}

/** One decision: asked (again while invalid and the rule allows), committed, counted. Undefined when stopped. */
async function decide(r: Shared, spec: TrialSpec): Promise<TrialRecord | undefined> {
  const { c } = r;
  const onInvalid = r.design.play!.onInvalid;
  const retries = onInvalid.kind === 'retry' ? onInvalid.n : 0;
  let attempts = 0;
  for (let k = 0; ; k++) {
    await c.limit.acquire();
    let rec: TrialRecord | undefined;
    try {
      if (c.halt.aborted) return undefined;
      rec = await attempt(c, spec);
    } finally {
      c.limit.release();
    }
    if (rec === undefined) { c.counts.dropped++; return undefined; }
    attempts += rec.attempts;
    if (rec.status === 'invalid' && k < retries) continue;
    const done = { ...rec, attempts };
    c.o.store.write(done); // committed before it counts
    c.counts[done.status]++;
    r.progress.tick(done.status === 'error', (done.inputTokens ?? 0) + (done.outputTokens ?? 0));
    return done;
  }
}

async function playMatch(r: Shared, s: MatchState, got: Map<string, Action | null>): Promise<void> {
  const play = r.design.play!;
  while (s.status === 'open') {
    if (r.c.halt.aborted) return;
    const { round, specs } = nextRound(r.design, s, got);
    const recs = await Promise.all(specs.map((spec) => decide(r, spec)));
    for (const rec of recs) if (rec && rec.status !== 'error') got.set(`${round}:${rec.play!.seat}`, rec.action);
    if (recs.some((rec) => rec === undefined || rec.status === 'error')) return; // stopped, or failed: a rerun asks again
    const seat2 = s.plan.seat2;
    const a2 = seat2.kind === 'model' ? got.get(`${round}:2`)! : strategyMove(play, seat2, s.plan.match, round, s.history);
    const played = s.history.length;
    advance(r.design, s, [got.get(`${round}:1`)!, a2]);
    r.roundsDone += s.history.length - played;
  }
  r.matchesDone++;
  if (s.status === 'forfeit') r.forfeited++;
}

export async function runMatches(o: MatchRunOptions): Promise<MatchRunSummary> {
  const logger = o.logger ?? silentLogger;
  const c = runContext(o, logger);
  o.store.preparePlay();
  const stored = movesByMatch(o.moves ?? o.store.playMoves(o.runId));
  const states = (o.plans ?? planMatches(o.design)).filter((p) => o.only?.has(p.match) ?? true).map((p) => matchState(o.design, p, stored.get(p.match)));
  const total = decisionCount(o.design, states.map((s) => s.plan));
  const alreadyDone = states.reduce((n, s) => n + (stored.get(s.plan.match)?.size ?? 0), 0);
  const progress = new Progress(total, alreadyDone, c.clock, logger);
  const r: Shared = { c, design: o.design, progress, matchesDone: 0, forfeited: 0, roundsDone: states.reduce((n, s) => n + s.history.length, 0) };
  for (const s of states) if (s.status !== 'open') { r.matchesDone++; if (s.status === 'forfeit') r.forfeited++; }
  progress.noun = 'decisions';
  const rounds = states.length * o.design.play!.rounds;
  progress.extra = () => `${r.roundsDone}/${rounds} rounds played, ${r.matchesDone}/${states.length} matches over`;
  o.onStart?.({ matches: states.length, matchesDone: r.matchesDone, decisions: total, stored: alreadyDone });
  await Promise.all(states.filter((s) => s.status === 'open').map((s) => playMatch(r, s, new Map(stored.get(s.plan.match)))));
  c.notices.finish();
  endRun(c);
  if (c.counts.error > 0) logger.warn(runMsg.errorsRecorded(c.counts.error));
  return {
    matches: states.length, matchesDone: r.matchesDone, forfeited: r.forfeited, total, alreadyDone, ...c.counts, tokens: progress.tokens,
    outcome: c.abort.aborted ? 'aborted' : c.stop.aborted && r.matchesDone < states.length ? 'interrupted' : 'complete',
  };
}
