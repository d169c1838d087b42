/**
 * An adaptive repeated game in waves: after each wave every unit (stats/confseq over its matches, matches.ts) is looked at
 * from the stored moves alone; the units that meet the rule stop and the open ones get their next wave of matches (reps
 * n … n + wave − 1 of each of their framings), each played whole — by the match engine (synchronous calls), or round by
 * round through the Batch API (round-synchronous: round t of every match of the wave is one batch). Because the looks read
 * only stored moves, a run killed mid-wave and run again finishes that wave's matches where they stopped and takes the same
 * decisions: it ends with the store an uninterrupted run writes.
 */
import type { UnitStatus } from '../../stats/confseq/units.js';
import type { AdaptiveStop } from '../design/stop.js';
import { runMatches, type MatchRunOptions } from '../repeated/engine.js';
import { planMatches } from '../repeated/plan.js';
import type { RunSummary } from '../runner/runner.js';
import { adaptiveMsg } from './messages.js';
import { matchStatuses, matchUnits, nextMatchWave, unitCalls } from './matches.js';

/** How a wave's matches are played: the match engine (the default), or round batches (the run command's batch part). */
export type MatchWaveExecutor = (only: ReadonlySet<number>, wave: number) => Promise<RunSummary>;

export interface MatchWavesSummary extends RunSummary {
  readonly statuses: readonly UnitStatus[];
  /** Matches the units used (n in each framing) and a fixed design's (max_trials in each). */
  readonly matchesUsed: number;
  readonly matchesFixed: number;
  /** The decisions (LLM calls without retries) of those matches. */
  readonly used: number;
  readonly fixed: number;
}

/**
 * The waves of an adaptive repeated game: look, play the open units' next wave of matches, look again, until every unit
 * has stopped, or the run is interrupted, or a wave leaves errored decisions (run again to retry them), or a wave stores
 * nothing (a batch submitted and not waited for: the run again collects it and goes on).
 */
export async function runMatchWaves(o: MatchRunOptions & { readonly rule: AdaptiveStop; readonly execute?: MatchWaveExecutor }): Promise<MatchWavesSummary> {
  const plans = planMatches(o.design);
  const units = matchUnits(o.rule, plans);
  // One read of the stored moves per look: the statuses, whether the wave stored anything, and the engine's start.
  const look = () => {
    const moves = o.store.playMoves(o.runId);
    return { moves, statuses: matchStatuses(o.rule, o.design, moves, plans, units) };
  };
  // What the fixed design would use does not change from look to look (the same units): counted once.
  const matchesFixed = units.reduce((a, u) => a + o.rule.maxTrials * u.framings.length, 0);
  const fixed = unitCalls(o.design, plans, units.map((unit) => ({ unit })), () => o.rule.maxTrials);
  const count = (st: readonly UnitStatus[]) => {
    const matchesUsed = st.reduce((a, s) => a + s.n * s.unit.framings.length, 0);
    return { matchesUsed, used: unitCalls(o.design, plans, st, (s) => s.n), matchesFixed, fixed };
  };
  const totals = { total: 0, alreadyDone: 0, ok: 0, invalid: 0, error: 0, dropped: 0, calls: 0, tokens: 0 };
  o.store.preparePlay();
  let seen = look();
  for (let wave = 1; ; wave++) {
    const only = nextMatchWave(o.rule, seen.statuses, plans);
    if (only.size === 0) break;
    const before = seen.moves.length;
    const r = o.execute ? await o.execute(only, wave)
      : await runMatches({ ...o, only, moves: seen.moves, plans, onStart: wave === 1 ? o.onStart : undefined });
    for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += r[k];
    seen = look();
    const statuses = seen.statuses;
    const open = statuses.filter((s) => !s.stopped).length;
    const c = count(statuses);
    o.logger?.info(adaptiveMsg.matchWaveDone(wave, open, statuses.length - open, c.matchesUsed, c.used, c.matchesFixed, c.fixed));
    if (r.outcome !== 'complete') return { ...totals, outcome: r.outcome, statuses, ...c };
    if (r.error > 0 || seen.moves.length === before) break;
  }
  const statuses = seen.statuses;
  return { ...totals, outcome: 'complete', statuses, ...count(statuses) };
}
