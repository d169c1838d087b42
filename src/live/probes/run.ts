/**
 * Asking a run's comprehension probes (docs/methods.md §18c): the probes of the design
 * (expandProbes) through the same runner as decisions — limits, retries, stop and abort — each
 * committed to probe_trials before it counts, so a resumed run never asks a completed probe again.
 * An answer with one number is `ok` (scored correct or wrong), one without is `invalid`.
 */
import { runTrials, type CallOptions, type RunSummary } from '../runner/runner.js';
import { planRun, type Prices, type RunPlan } from '../runner/plan.js';
import type { TrialStore } from '../store/store.js';
import type { TrialSpec } from '../types.js';
import { scoreProbeResponse } from './score.js';
import { probeAnswered, probeSink } from './store.js';

/** Ask the probes not yet answered; the store must be migrated (openRun with a kind). */
export function runProbes(specs: readonly TrialSpec[], o: CallOptions & { readonly onStart?: (done: number, toAsk: number) => void }): Promise<RunSummary> {
  return runTrials({ ...o, specs, score: scoreProbeResponse, sink: probeSink(o.store, o.runId) });
}

/** What asking the probes will cost (run --dry-run): the probes stored in a store's run are not counted again. */
export function planProbes(specs: readonly TrialSpec[], store: TrialStore | undefined, runId: number | undefined,
  prices: (s: TrialSpec) => Prices | undefined): RunPlan {
  const answered = store !== undefined && runId !== undefined ? probeAnswered(store, runId) : () => false;
  return planRun(specs, answered, prices);
}
