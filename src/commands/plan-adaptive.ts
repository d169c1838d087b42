/**
 * `plan --until RULE`: the expected trials of an adaptive run's stop rule at the planned rates
 * (simulated, stats/confseq/simulate.ts), beside the fixed design of max_trials per cell. A rate
 * rule plans every cell; a shift rule every model × game contrast of the two planned framings.
 */
import { cellRate, type CellTable } from '../core/cells.js';
import { fixed } from '../core/format.js';
import { parseUntil } from '../live/design/stop.js';
import { simulateRule } from '../stats/confseq/simulate.js';
import { cellKey, stopUnits } from '../stats/confseq/units.js';
import { textTable } from '../analyses/two-framing/terminal.js';
import { commandsMsg } from './messages.js';

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

/** The rule of `until` (max_trials: its own, else `fixedN`) simulated at the rates of `table`. */
export function planAdaptive(until: string, table: CellTable, base: string, alt: string, fixedN: number, seed: number): AdaptivePlan {
  const given = /(^|,)\s*max_trials\s*=/.test(until);
  const parsed = parseUntil(until, { framings: [{ id: base }, { id: alt }], trials: Number.MAX_SAFE_INTEGER });
  const rule = { ...parsed, maxTrials: given ? parsed.maxTrials : fixedN };
  const rate = new Map(table.cells.map((c) => [cellKey(c.key.model, c.key.game, c.key.framing), cellRate(c.obs)]));
  // A shift is planned where its base framing was (the unit's rates are looked up; a missing alt is NaN).
  const units = stopUnits({ ...rule, base, alt }, table.cells.map((c) => ({ model: c.key.model, game: c.key.game, framing: c.key.framing }))
    .filter((k) => rule.target !== 'shift' || k.framing === base));
  const rows = units.map((u) => {
    const p = u.framings.map((f) => rate.get(cellKey(u.model, u.game, f)) ?? NaN);
    const sim = simulateRule(rule, { base: p[0], ...(p.length > 1 ? { alt: p[1] } : {}) }, PLAN_ADAPTIVE_RUNS, seed,
      cellKey(u.model, u.game, u.framings.join('\u0000')));
    return { ...u, meanTrials: sim.meanTrials, earlyShare: (sim.runs - sim.reasons.max_trials) / sim.runs, coverage: sim.coverage };
  });
  const expectedCalls = rows.reduce((a, r) => a + r.meanTrials * r.framings.length, 0);
  const fixedCalls = rows.reduce((a, r) => a + rule.maxTrials * r.framings.length, 0);
  return { rows, maxTrials: rule.maxTrials, expectedCalls, fixedCalls };
}

/** The adaptive plan as the terminal shows it. */
export function adaptivePlanText(until: string, p: AdaptivePlan): string {
  return `\n${commandsMsg.planAdaptive(until, PLAN_ADAPTIVE_RUNS, p.maxTrials, p.expectedCalls, p.fixedCalls)}\n`
    + textTable(['model', 'game', 'framing', 'expected trials per framing', 'stopped early', 'coverage at the stop'],
      p.rows.map((r) => [r.model, r.game, r.framings.join(' vs '), fixed(r.meanTrials, 1), fixed(r.earlyShare, 2), fixed(r.coverage, 3)])) + '\n';
}
