/**
 * `plan --until RULE`: the expected trials of an adaptive run's stop rule at the planned rates
 * (simulated, analyses/adaptive/plan.ts), beside the fixed design of max_trials per cell. A rate
 * rule plans every cell; a shift rule every model × game contrast of the two planned framings.
 */
import { cellRate, type CellTable } from '../core/cells.js';
import { fixed } from '../core/format.js';
import { parseUntil } from '../live/design/stop.js';
import { PLAN_ADAPTIVE_RUNS, simulatedPlan, type AdaptivePlan } from '../analyses/adaptive/plan.js';
import { textTable } from '../analyses/two-framing/terminal.js';
import { commandsMsg } from './messages.js';

export { PLAN_ADAPTIVE_RUNS, type AdaptivePlan, type AdaptivePlanRow } from '../analyses/adaptive/plan.js';

/** The rule of `until` (max_trials: its own, else `fixedN`) simulated at the rates of `table`. */
export function planAdaptive(until: string, table: CellTable, base: string, alt: string, fixedN: number, seed: number): AdaptivePlan {
  const given = /(^|,)\s*max_trials\s*=/.test(until);
  const parsed = parseUntil(until, { framings: [{ id: base }, { id: alt }], trials: Number.MAX_SAFE_INTEGER });
  const rule = { ...parsed, maxTrials: given ? parsed.maxTrials : fixedN, base, alt };
  const cells = table.cells.map((c) => ({ model: c.key.model, game: c.key.game, framing: c.key.framing, rate: cellRate(c.obs) }));
  return simulatedPlan(rule, cells, PLAN_ADAPTIVE_RUNS, seed);
}

/** The adaptive plan as the terminal shows it. */
export function adaptivePlanText(until: string, p: AdaptivePlan): string {
  return `\n${commandsMsg.planAdaptive(until, PLAN_ADAPTIVE_RUNS, p.maxTrials, p.expectedCalls, p.fixedCalls)}\n`
    + textTable(['model', 'game', 'framing', 'expected trials per framing', 'stopped early', 'coverage at the stop'],
      p.rows.map((r) => [r.model, r.game, r.framings.join(' vs '), fixed(r.meanTrials, 1), fixed(r.earlyShare, 2), fixed(r.coverage, 3)])) + '\n';
}
