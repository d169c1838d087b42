/**
 * The expected trials of an adaptive run's stop rule at given per-cell rates (simulated,
 * stats/confseq/simulate.ts), beside the fixed design of max_trials per cell: `plan --until` at
 * the planned rates, and `run --dry-run` of an adaptive design whose models are all simulated at
 * fixed rates. A rate rule plans every cell; a shift rule every model × game contrast of its two framings. A repeated
 * game's rule is simulated on draws from stored matches instead (plannedMatches): a pilot's, or a resumed run's.
 */
import { simulateRule, type RuleSimulation } from '../../stats/confseq/simulate.js';
import type { StopRule } from '../../stats/confseq/stop-rule.js';
import { cellKey, stopUnits, type StopUnit } from '../../stats/confseq/units.js';
import type { AdaptiveStop } from '../../live/design/stop.js';
import type { Design } from '../../live/design/types.js';
import { planMatches, type MatchPlan } from '../../live/repeated/plan.js';
import { matchSamples, matchUnits, unitCalls } from '../../live/adaptive/matches.js';
import { simulateMatchUnits } from './matches.js';

/** Simulated runs per unit. */
export const PLAN_ADAPTIVE_RUNS = 200;

export interface AdaptivePlanRow {
  readonly model: string;
  readonly game: string;
  readonly framings: readonly string[];
  readonly meanTrials: number;
  readonly earlyShare: number;
  /** Share of simulated runs whose interval at the stopping look holds the planned rate or shift. */
  readonly coverage: number;
}

export interface AdaptivePlan {
  readonly rows: readonly AdaptivePlanRow[];
  readonly maxTrials: number;
  readonly expectedCalls: number;
  readonly fixedCalls: number;
}

/** A cell and its P(C). */
export interface RatedCell {
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly rate: number;
}

/** A unit of the rule with the rates of its framings (NaN where a framing's cell has none) and the rule simulated at them. */
export interface SimulatedUnit extends StopUnit {
  readonly rates: readonly number[];
  /** The true rate (one framing) or shift alt − base. */
  readonly truth: number;
  readonly sim: RuleSimulation;
}

/**
 * The one loop of planning and coverage: every unit of the rule over the rated cells, simulated `runs` times at its
 * framings' rates (seeded by the unit). A shift is a unit where its base framing's cell is (cells of other framings only
 * give rates). `rated: true` leaves out the units with a framing without a rate.
 */
export function simulateUnits(rule: StopRule & { base?: string; alt?: string }, cells: readonly RatedCell[], runs: number, seed: number,
  rated = false): SimulatedUnit[] {
  const rate = new Map(cells.map((c) => [cellKey(c.model, c.game, c.framing), c.rate]));
  const units = stopUnits(rule, cells.filter((k) => rule.target !== 'shift' || k.framing === rule.base));
  return units.flatMap((u) => {
    const p = u.framings.map((f) => rate.get(cellKey(u.model, u.game, f)) ?? NaN);
    if (rated && p.some((x) => !Number.isFinite(x))) return [];
    const sim = simulateRule(rule, { base: p[0], ...(p.length > 1 ? { alt: p[1] } : {}) }, runs, seed,
      cellKey(u.model, u.game, u.framings.join('\u0000')));
    return [{ ...u, rates: p, truth: p.length > 1 ? p[1] - p[0] : p[0], sim }];
  });
}

/** The rule simulated `runs` times per unit at the cells' rates (a unit's missing framing: NaN). */
export function simulatedPlan(rule: StopRule & { base?: string; alt?: string }, cells: readonly RatedCell[], runs: number, seed: number): AdaptivePlan {
  const rows = simulateUnits(rule, cells, runs, seed).map(({ model, game, framings, sim }) => ({
    model, game, framings, meanTrials: sim.meanTrials, earlyShare: (sim.runs - sim.reasons.max_trials) / sim.runs, coverage: sim.coverage,
  }));
  const expectedCalls = rows.reduce((a, r) => a + r.meanTrials * r.framings.length, 0);
  const fixedCalls = rows.reduce((a, r) => a + rule.maxTrials * r.framings.length, 0);
  return { rows, maxTrials: rule.maxTrials, expectedCalls, fixedCalls };
}

/** A unit of a repeated game's rule (the match is the unit) simulated on draws from the matches stored (a pilot's, or a resumed run's). */
export interface MatchPlanRow extends AdaptivePlanRow {
  readonly opponent: string;
  /** Finished matches drawn from, per framing (not forfeited). */
  readonly pilot: readonly number[];
}

export interface MatchAdaptivePlan {
  readonly rows: readonly MatchPlanRow[];
  readonly maxTrials: number;
  /** Decisions (LLM calls) expected under the rule, and those of max_trials matches per cell, over the units simulated. */
  readonly expectedCalls: number;
  readonly fixedCalls: number;
  /** Units left out: without a finished match in one of their framings. */
  readonly left: number;
}

/**
 * The rule of a repeated design simulated `runs` times per unit on draws from its stored matches (analyses/adaptive/matches.ts):
 * `plan STORE --until` on a repeated pilot, and `run --dry-run` of an adaptive repeated design with matches stored. `meanTrials`
 * counts matches per framing.
 */
export function plannedMatches(rule: AdaptiveStop, design: Design, moves: Parameters<typeof matchSamples>[2], runs: number, seed: number,
  plans: readonly MatchPlan[] = planMatches(design)): MatchAdaptivePlan {
  const units = matchUnits(rule, plans);
  const sims = simulateMatchUnits(rule, matchSamples(rule, design, moves, plans, units), runs, seed);
  const rows = sims.map(({ unit: u, samples, sim }) => ({
    model: u.model, game: u.game, opponent: u.opponent ?? '', framings: u.framings, pilot: samples.map((x) => x.length), meanTrials: sim.meanMatches,
    earlyShare: (sim.runs - sim.reasons.max_trials) / sim.runs, coverage: sim.coverage,
  }));
  return { rows, maxTrials: rule.maxTrials, expectedCalls: unitCalls(design, plans, sims, (s) => s.sim.meanMatches),
    fixedCalls: unitCalls(design, plans, sims, () => rule.maxTrials), left: units.length - sims.length };
}
