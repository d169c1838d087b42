/**
 * An adaptive run's stop rule and units, read from the store: the rule recorded with the run's
 * design (its `stop:` block, or run --until) and every unit's status from the stored trials, as
 * the runner looked at them (stats/confseq/units.ts; a repeated game's over its matches, live/adaptive/).
 * Undefined for a run without a stop rule.
 */
import type { TrialStore } from '../live/store/store.js';
import { readableDesign, repeatedDesign } from '../live/store/stored-design.js';
import { matchSamples, matchStatuses, matchUnits, unitCalls } from '../live/adaptive/matches.js';
import { planMatches } from '../live/repeated/plan.js';
import type { AdaptiveStop } from '../live/design/stop.js';
import type { StopRule } from '../stats/confseq/stop-rule.js';
import { stopUnits, unitStatuses, type StopUnit, type UnitStatus } from '../stats/confseq/units.js';

export interface AdaptiveRun {
  readonly rule: StopRule & { readonly base?: string; readonly alt?: string };
  readonly statuses: readonly UnitStatus[];
  /** Repeated play (the unit of sampling is the match): the decisions (LLM calls) the units' matches used, and a fixed design's. */
  readonly calls?: { readonly used: number; readonly fixed: number };
  /** Repeated play: each unit's stored match observations per framing (what coverage's simulation of the rule draws from). */
  readonly samples?: readonly { readonly unit: StopUnit; readonly samples: readonly (readonly number[])[] }[];
}

export function readAdaptiveRun(store: TrialStore, run: { readonly id: number; readonly designJson: string }): AdaptiveRun | undefined {
  const design = readableDesign(run) as (ReturnType<typeof readableDesign> & { stop?: AdaptiveRun['rule'] }) | undefined;
  const rule = design?.stop;
  if (!rule || !design.models || !design.games || !design.framings) return undefined;
  if (design.play) {
    const d = repeatedDesign(design);
    const plans = planMatches(d);
    const units = matchUnits(rule as AdaptiveStop, plans);
    const moves = store.playMoves(run.id);
    const statuses = matchStatuses(rule as AdaptiveStop, d, moves, plans, units);
    return { rule, statuses, calls: { used: unitCalls(d, plans, statuses, (s) => s.n), fixed: unitCalls(d, plans, statuses, () => rule.maxTrials) },
      samples: matchSamples(rule as AdaptiveStop, d, moves, plans, units) };
  }
  const id = (x: string | { readonly id?: string }) => (typeof x === 'string' ? x : x.id ?? '');
  const cells = design.models.flatMap((m) => design.games!.flatMap((g) => design.framings!.map((f) => ({ model: id(m), game: id(g), framing: id(f) }))));
  return { rule, statuses: unitStatuses(rule, stopUnits(rule, cells), store.trialOutcomes(run.id)) };
}
