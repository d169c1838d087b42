/**
 * The expected trials of an adaptive run's stop rule at given per-cell rates (simulated,
 * stats/confseq/simulate.ts), beside the fixed design of max_trials per cell: `plan --until` at
 * the planned rates, and `run --dry-run` of an adaptive design whose models are all simulated at
 * fixed rates. A rate rule plans every cell; a shift rule every model × game contrast of its two framings.
 */
import { simulateRule } from '../../stats/confseq/simulate.js';
import type { StopRule } from '../../stats/confseq/stop-rule.js';
import { cellKey, stopUnits } from '../../stats/confseq/units.js';

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

/**
 * The rule simulated `runs` times per unit at the cells' rates (a unit's missing framing: NaN). A shift is planned
 * where its base framing's cell is (`cells` of other framings only give rates).
 */
export function simulatedPlan(rule: StopRule & { base?: string; alt?: string }, cells: readonly RatedCell[], runs: number, seed: number): AdaptivePlan {
  const rate = new Map(cells.map((c) => [cellKey(c.model, c.game, c.framing), c.rate]));
  const units = stopUnits(rule, cells.filter((k) => rule.target !== 'shift' || k.framing === rule.base));
  const rows = units.map((u) => {
    const p = u.framings.map((f) => rate.get(cellKey(u.model, u.game, f)) ?? NaN);
    const sim = simulateRule(rule, { base: p[0], ...(p.length > 1 ? { alt: p[1] } : {}) }, runs, seed,
      cellKey(u.model, u.game, u.framings.join('\u0000')));
    return { ...u, meanTrials: sim.meanTrials, earlyShare: (sim.runs - sim.reasons.max_trials) / sim.runs, coverage: sim.coverage };
  });
  const expectedCalls = rows.reduce((a, r) => a + r.meanTrials * r.framings.length, 0);
  const fixedCalls = rows.reduce((a, r) => a + rule.maxTrials * r.framings.length, 0);
  return { rows, maxTrials: rule.maxTrials, expectedCalls, fixedCalls };
}
