/**
 * The units of an adaptive repeated game (a play design with a `stop:` block). The match is the unit of sampling: a match
 * is played whole, and its observation is seat 1's cooperation rate over its rounds, in [0, 1] (a bounded observation, so
 * the confidence sequences of stats/confseq apply unchanged; its mean is the cell's expected cooperation rate of the
 * model over a match, which, every match having the same rounds, is the pooled cooperation rate of its decisions). The
 * rounds of one match are dependent (each answers the history), the matches are independent: the sequence runs over
 * matches. A unit is a model × game × framing × opponent cell (target rate) or a model × game × opponent contrast of two
 * framings in lockstep (target shift): match rep r under base and under alt make one pair, observing
 * rate_alt − rate_base ∈ [−1, 1]. A forfeited match (an invalid answer ended it) counts as a match, not as an observation.
 */
import type { Action } from '../../core/games.js';
import { cellKey, unitObservations, type StopUnit, type UnitStatus } from '../../stats/confseq/units.js';
import { cellStatus } from '../../stats/confseq/stop-rule.js';
import type { AdaptiveStop } from '../design/stop.js';
import type { Design } from '../design/types.js';
import type { StoredMove } from '../store/store.js';
import { llmSeats, planMatches, type MatchPlan } from '../repeated/plan.js';
import { matchState, movesByMatch } from '../repeated/state.js';

/** The units of a rule over a repeated design's matches, in the matches' order. */
export function matchUnits(rule: AdaptiveStop, plans: readonly MatchPlan[]): StopUnit[] {
  const seen = new Map<string, StopUnit>();
  for (const p of plans) {
    const framings = rule.target === 'shift' ? [rule.base!, rule.alt!] : [p.framing.id];
    const k = `${cellKey(p.seat1.id, p.game.id, framings.join('\u0000'))}\u0000${p.opponent}`;
    if (!seen.has(k)) seen.set(k, { model: p.seat1.id, game: p.game.id, framings, opponent: p.opponent });
  }
  return [...seen.values()];
}

/** A match's observation: seat 1's share of C over the rounds of a match played whole, NaN for a forfeited one, undefined while open. */
export function matchObservation(design: Design, plan: MatchPlan, got: ReadonlyMap<string, Action | null> | undefined): number | undefined {
  const s = matchState(design, plan, got);
  if (s.status === 'open') return undefined;
  if (s.status === 'forfeit') return NaN;
  return s.history.filter((h) => h.moves[0] === 'C').length / s.history.length;
}

/** By opponent, each cell's finished matches by rep (the shape the one-shot units read: stats/confseq/units.ts). */
function finishedMatches(design: Design, moves: readonly StoredMove[], plans: readonly MatchPlan[]): Map<string, Map<string, Map<number, number>>> {
  const stored = movesByMatch(moves);
  const cells = new Map<string, Map<string, Map<number, number>>>();
  for (const p of plans) {
    const x = matchObservation(design, p, stored.get(p.match));
    if (x === undefined) continue;
    if (!cells.has(p.opponent)) cells.set(p.opponent, new Map());
    const byCell = cells.get(p.opponent)!;
    const k = cellKey(p.seat1.id, p.game.id, p.framing.id);
    if (!byCell.has(k)) byCell.set(k, new Map());
    byCell.get(k)!.set(p.rep, x);
  }
  return cells;
}

/** Every unit's status from the stored moves of a run, as the runner and the analysis read it. */
export function matchStatuses(rule: AdaptiveStop, design: Design, moves: readonly StoredMove[], plans: readonly MatchPlan[] = planMatches(design),
  units = matchUnits(rule, plans)): UnitStatus[] {
  const cells = finishedMatches(design, moves, plans);
  return units.map((unit) => ({ unit, ...cellStatus(rule, unitObservations(unit, cells.get(unit.opponent!) ?? new Map())) }));
}

const unitKeyOf = (model: string, game: string, framing: string, opponent: string) => `${cellKey(model, game, framing)}\u0000${opponent}`;

/** The matches of each open unit's next wave (reps n … min(n + wave, max_trials) − 1 in each of its framings). */
export function nextMatchWave(rule: AdaptiveStop, statuses: readonly UnitStatus[], plans: readonly MatchPlan[]): Set<number> {
  const upto = new Map<string, [number, number]>();
  for (const st of statuses) {
    if (st.stopped) continue;
    const range: [number, number] = [st.n, Math.min(st.n + rule.wave, rule.maxTrials)];
    for (const f of st.unit.framings) upto.set(unitKeyOf(st.unit.model, st.unit.game, f, st.unit.opponent!), range);
  }
  const out = new Set<number>();
  for (const p of plans) {
    const r = upto.get(unitKeyOf(p.seat1.id, p.game.id, p.framing.id, p.opponent));
    if (r !== undefined && p.rep >= r[0] && p.rep < r[1]) out.add(p.match);
  }
  return out;
}

/** Whether a match may still be played: below max_trials in a unit the stored moves leave open (a stopped unit plays no more). */
export function stillPlayable(rule: AdaptiveStop, design: Design, moves: readonly StoredMove[], plans: readonly MatchPlan[] = planMatches(design)):
  (m: MatchPlan) => boolean {
  const stopped = new Set(matchStatuses(rule, design, moves, plans).filter((st) => st.stopped)
    .flatMap((st) => st.unit.framings.map((f) => unitKeyOf(st.unit.model, st.unit.game, f, st.unit.opponent!))));
  return (m) => m.rep < rule.maxTrials && !stopped.has(unitKeyOf(m.seat1.id, m.game.id, m.framing.id, m.opponent));
}

/** Decisions (LLM calls) of a unit's matches: n matches in each framing, rounds × LLM seats each. */
export function unitCalls<S extends { readonly unit: StopUnit }>(design: Design, plans: readonly MatchPlan[], statuses: readonly S[],
  matches: (s: S) => number): number {
  const seats = new Map(plans.map((p) => [unitKeyOf(p.seat1.id, p.game.id, p.framing.id, p.opponent), llmSeats(p).length]));
  return statuses.reduce((a, s) => a + s.unit.framings.reduce((b, f) =>
    b + matches(s) * design.play!.rounds * (seats.get(unitKeyOf(s.unit.model, s.unit.game, f, s.unit.opponent!)) ?? 0), 0), 0);
}

/** Each unit's stored match observations per framing (the matches over and not forfeited): what a simulation of the rule draws from. */
export function matchSamples(rule: AdaptiveStop, design: Design, moves: readonly StoredMove[], plans: readonly MatchPlan[] = planMatches(design),
  units = matchUnits(rule, plans)): { unit: StopUnit; samples: number[][] }[] {
  const cells = finishedMatches(design, moves, plans);
  return units.map((unit) => ({ unit, samples: unit.framings.map((f) =>
    [...(cells.get(unit.opponent!)?.get(cellKey(unit.model, unit.game, f))?.values() ?? [])].filter((x) => !Number.isNaN(x))) }));
}
