/**
 * An adaptive run in waves (a design with a `stop:` block): after each wave every unit — a cell
 * (target rate) or a model × game contrast of two framings in lockstep (target shift) — is looked
 * at from the store alone (stats/confseq/stop-rule.ts), the units that meet the rule stop and the
 * open ones get their next wave of trials (reps n … n + wave − 1). Because the looks read only
 * stored trials, a run killed mid-wave and run again finishes that wave and takes the same
 * decisions: the store it ends with is the one an uninterrupted run writes.
 */
import { cellKey, stopUnits, unitStatuses, type StopUnit, type UnitStatus } from '../../stats/confseq/units.js';
import type { AdaptiveStop } from '../design/stop.js';
import type { TrialStore } from '../store/store.js';
import type { TrialSpec } from '../types.js';
import { runTrials, type RunnerOptions, type RunSummary } from './runner.js';
import { runnerMsg } from './messages.js';

/** Every unit's status from the stored trials of a run. */
function storedStatuses(rule: AdaptiveStop, units: readonly StopUnit[], store: TrialStore, runId: number): UnitStatus[] {
  return unitStatuses(rule, units, store.trialOutcomes(runId));
}

/** The trials of each open unit's next wave (reps n … min(n + wave, max_trials) − 1). */
export function nextWave(rule: AdaptiveStop, statuses: readonly UnitStatus[], specs: readonly TrialSpec[]): TrialSpec[] {
  const upto = new Map<string, [number, number]>();
  for (const st of statuses) {
    if (st.stopped) continue;
    for (const f of st.unit.framings) upto.set(cellKey(st.unit.model, st.unit.game, f), [st.n, Math.min(st.n + rule.wave, rule.maxTrials)]);
  }
  return specs.filter((s) => {
    const r = upto.get(cellKey(s.model.id, s.game, s.framing));
    return r !== undefined && s.rep >= r[0] && s.rep < r[1];
  });
}

/** The trials a rule can ask for: those of the cells of its units, reps 0 … max_trials − 1 (what a dry run counts). */
export function ruleSpecs(rule: AdaptiveStop, specs: readonly TrialSpec[]): TrialSpec[] {
  const cells = new Set(stopUnits(rule, specs.map((s) => ({ model: s.model.id, game: s.game, framing: s.framing })))
    .flatMap((u) => u.framings.map((f) => cellKey(u.model, u.game, f))));
  return specs.filter((s) => s.rep < rule.maxTrials && cells.has(cellKey(s.model.id, s.game, s.framing)));
}

export interface WavesSummary extends RunSummary {
  readonly statuses: readonly UnitStatus[];
  /** Trials (calls without retries) the stored units used, and a fixed design's trials. */
  readonly used: number;
  readonly fixed: number;
}

/** The trials a unit's status has used: n reps of each of its framings. */
const usedBy = (statuses: readonly UnitStatus[]) => statuses.reduce((a, s) => a + s.n * s.unit.framings.length, 0);

/** How a wave's trials are run: synchronously (runTrials, the default) or as one batch per wave (the run command's batch part). */
export type WaveExecutor = (specs: readonly TrialSpec[], wave: number) => Promise<RunSummary>;

/**
 * The waves of an adaptive run: look, run the open units' next wave, look again, until every unit
 * has stopped, or the run is interrupted, or a wave leaves errored trials (run again to retry them),
 * or a wave stores nothing (a batch submitted and not waited for: the run again collects it and goes on).
 */
export async function runWaves(o: RunnerOptions & { readonly rule: AdaptiveStop; readonly execute?: WaveExecutor }): Promise<WavesSummary> {
  const units = stopUnits(o.rule, o.specs.map((s) => ({ model: s.model.id, game: s.game, framing: s.framing })));
  const fixed = units.length * o.rule.maxTrials * (o.rule.target === 'shift' ? 2 : 1);
  const totals = { total: 0, alreadyDone: 0, ok: 0, invalid: 0, error: 0, dropped: 0, calls: 0, tokens: 0 };
  let statuses = storedStatuses(o.rule, units, o.store, o.runId);
  for (let wave = 1; ; wave++) {
    const specs = nextWave(o.rule, statuses, o.specs);
    if (specs.length === 0) break;
    const r = o.execute ? await o.execute(specs, wave) : await runTrials({ ...o, specs, onStart: wave === 1 ? o.onStart : undefined });
    for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += r[k];
    const before = usedBy(statuses);
    statuses = storedStatuses(o.rule, units, o.store, o.runId);
    const open = statuses.filter((s) => !s.stopped).length;
    const used = usedBy(statuses);
    o.logger?.info(runnerMsg.waveDone(wave, open, statuses.length - open, used, fixed));
    if (r.outcome !== 'complete') return { ...totals, outcome: r.outcome, statuses, used, fixed };
    if (r.error > 0 || used === before) break;
  }
  return { ...totals, outcome: 'complete', statuses, used: usedBy(statuses), fixed };
}
