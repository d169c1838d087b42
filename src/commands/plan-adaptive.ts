/**
 * `plan --until RULE`: the expected trials of an adaptive run's stop rule at the planned rates
 * (simulated, analyses/adaptive/plan.ts), beside the fixed design of max_trials per cell. A rate
 * rule plans every cell; a shift rule every model × game contrast of the two planned framings.
 * On a repeated pilot store the match is the unit: the rule is simulated on draws from the
 * pilot's finished matches (plannedMatches, as `run --dry-run` of an adaptive repeated design),
 * with max_trials given; its fixed matches per cell are not planned from the pilot.
 */
import { cellRate, type CellTable } from '../core/cells.js';
import { fixed } from '../core/format.js';
import { resolveStop, untilBlock, type AdaptiveStop } from '../live/design/stop.js';
import { MAX_TRIALS_PER_CELL } from '../live/design/schema.js';
import { liveMsg } from '../core/messages/live.js';
import { TWO_FRAMING_DEFAULTS as DEFAULTS } from '../analyses/two-framing/index.js';
import { PLAN_ADAPTIVE_RUNS, plannedMatches, simulatedPlan, type AdaptivePlan, type MatchAdaptivePlan } from '../analyses/adaptive/plan.js';
import { UserError } from '../core/errors.js';
import { repeatedDesign, storedDesign } from '../live/store/stored-design.js';
import type { TrialStore } from '../live/store/store.js';
import { textTable } from '../analyses/two-framing/terminal.js';
import { commandsMsg } from './messages.js';
import { msg } from '../core/messages/common.js';

export { PLAN_ADAPTIVE_RUNS, type AdaptivePlan, type AdaptivePlanRow, type MatchAdaptivePlan } from '../analyses/adaptive/plan.js';

/**
 * The rule of `until` planned for the framings base and alt (the flags', or their defaults): base=/alt= of the rule must name
 * one of them, and the pair planned is the flags'. max_trials is the rule's (refused above MAX_TRIALS_PER_CELL), else `fixedN`;
 * undefined when neither gives it.
 */
function plannedRule(until: string, base: string, alt: string | undefined, fixedN?: number, play?: unknown): AdaptiveStop | undefined {
  const framings = alt === undefined ? [base] : [base, alt];
  const block = untilBlock(until, { framings: framings.map((id) => ({ id })), trials: Number.MAX_SAFE_INTEGER, play });
  if (block.max_trials !== undefined && block.max_trials > MAX_TRIALS_PER_CELL) {
    throw new UserError(liveMsg.untilField('max_trials', commandsMsg.planMaxTrials(block.max_trials, MAX_TRIALS_PER_CELL)));
  }
  const maxTrials = block.max_trials ?? fixedN;
  return maxTrials === undefined ? undefined : { ...resolveStop(block, maxTrials, framings), maxTrials, base, alt };
}

/** The rule of `until` (max_trials: its own, else `fixedN`) simulated at the rates of `table`. */
export function planAdaptive(until: string, table: CellTable, base: string, alt: string, fixedN: number, seed: number): AdaptivePlan {
  const rule = plannedRule(until, base, alt, fixedN)!;
  const cells = table.cells.map((c) => ({ model: c.key.model, game: c.key.game, framing: c.key.framing, rate: cellRate(c.obs) }));
  return simulatedPlan(rule, cells, PLAN_ADAPTIVE_RUNS, seed);
}

/** The adaptive plan as the terminal shows it. */
export function adaptivePlanText(until: string, p: AdaptivePlan): string {
  return `\n${commandsMsg.planAdaptive(until, PLAN_ADAPTIVE_RUNS, p.maxTrials, p.expectedCalls, p.fixedCalls)}\n`
    + textTable(['model', 'game', 'framing', 'expected trials per framing', 'stopped early', 'coverage at the stop'],
      p.rows.map((r) => [r.model, r.game, r.framings.join(' vs '), fixed(r.meanTrials, 1), fixed(r.earlyShare, 2), fixed(r.coverage, 3)])) + '\n';
}

/** `plan STORE --until RULE` of a repeated pilot: the rule over matches, simulated on the pilot's. */
export interface RepeatedPlanResult {
  readonly kind: 'repeated';
  readonly runId: number;
  readonly adaptive: MatchAdaptivePlan;
}

/**
 * The stop rule of `until` simulated on draws from a repeated pilot run's finished matches; refused in one line without
 * --until, without max_trials (a pilot's matches per cell say nothing of the run's), or without a unit's matches.
 */
export function planRepeatedPilot(store: TrialStore, path: string, run: { readonly id: number; readonly designJson: string },
  o: { readonly until?: string; readonly base?: string; readonly alt?: string; readonly seed: number }): RepeatedPlanResult {
  if (o.until === undefined) throw new UserError(commandsMsg.planRepeatedUntil(path, run.id));
  const design = repeatedDesign(storedDesign(run));
  const ids = design.framings.map((f) => f.id);
  for (const [flag, f] of [['--base', o.base], ['--alt', o.alt]] as const) {
    if (f !== undefined && !ids.includes(f)) throw new UserError(commandsMsg.planRepeatedFraming(path, run.id, flag, f, ids));
  }
  // The pair of the one-shot plan: business and friend-sharing when the pilot has them, else its first framings.
  const base = o.base ?? (ids.includes(DEFAULTS.base) ? DEFAULTS.base : ids[0]);
  const alt = o.alt ?? (ids.includes(DEFAULTS.alt) ? DEFAULTS.alt : ids.find((f) => f !== base));
  if (base === alt) throw new UserError(msg.sameFraming(base));
  const rule = plannedRule(o.until, base, alt, undefined, design.play);
  if (rule === undefined) throw new UserError(commandsMsg.planRepeatedMaxTrials(path));
  const adaptive = plannedMatches(rule, design, store.playMoves(run.id), PLAN_ADAPTIVE_RUNS, o.seed);
  if (adaptive.rows.length === 0) throw new UserError(commandsMsg.planRepeatedNoMatches(path, run.id));
  return { kind: 'repeated', runId: run.id, adaptive };
}

/** The repeated pilot's plan as the terminal shows it. */
export function repeatedPlanText(path: string, until: string, r: RepeatedPlanResult): string {
  const p = r.adaptive;
  const drawn = p.rows.reduce((a, x) => a + x.pilot.reduce((s, n) => s + n, 0), 0);
  return `${commandsMsg.planRepeatedPilot(path, r.runId, drawn)}\n`
    + `${commandsMsg.planAdaptive(until, PLAN_ADAPTIVE_RUNS, p.maxTrials, p.expectedCalls, p.fixedCalls, 'matches')}\n`
    + textTable(['model', 'game', 'opponent', 'framing', 'pilot matches', 'expected matches per framing', 'stopped early', 'coverage at the stop'],
      p.rows.map((x) => [x.model, x.game, x.opponent, x.framings.join(' vs '), x.pilot.join(' / '), fixed(x.meanTrials, 1), fixed(x.earlyShare, 2),
        fixed(x.coverage, 3)])) + '\n'
    + (p.left > 0 ? `${commandsMsg.planRepeatedLeft(p.left)}\n` : '');
}
