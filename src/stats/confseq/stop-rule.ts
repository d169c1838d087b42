/**
 * The stopping rule of an adaptive run, as a function of a cell's observations only (so that a
 * run resumed from its store takes the same decisions). A cell is looked at after each wave
 * (n = wave, 2·wave, …, and max_trials); at the first look where its confidence sequence meets
 * the rule it stops: for precision (half-width ≤ half_width), for a decision (sign: the interval
 * excludes 0; equivalence: the interval lies inside [−δ, δ]), or at max_trials. A rate's
 * observations are its 0/1 decisions; a shift's are the differences alt − base of pairs of
 * decisions sampled in lockstep, in {−1, 0, 1}, mapped to [0, 1] by (d + 1)/2 for the sequence
 * and back by 2y − 1 for the interval.
 */
import { CONFSEQ_METHODS, type ConfSeqMethodId } from './registry.js';
import type { SequenceState } from './types.js';

export type StopTarget = 'rate' | 'shift';
export type StopDecide = 'sign' | 'equivalence';
export type StopReason = 'precision' | StopDecide | 'max_trials';

export interface StopRule {
  readonly target: StopTarget;
  /** Stop when the interval's half-width is at or below this (on the target's scale). */
  readonly halfWidth?: number;
  /** Stop for a decision: the interval excludes 0 (sign) or lies inside [−delta, delta] (equivalence). */
  readonly decide?: StopDecide;
  readonly delta?: number;
  readonly confidence: number;
  /** Observations per cell between two looks. */
  readonly wave: number;
  readonly maxTrials: number;
  readonly method: ConfSeqMethodId;
  /** Closed-form boundaries: where the boundary is tightest (default max_trials). */
  readonly tOpt?: number;
}

/** A cell after its observations: its looks so far, its interval at the last look, and why it stopped (null: open). */
export interface CellStatus {
  /** Observations at the last look (0 before the first). */
  readonly n: number;
  readonly lo: number;
  readonly hi: number;
  readonly stopped: StopReason | null;
}

/** The interval scale of a target: a rate is in [0, 1], a shift in [−1, 1]. */
export const TARGET_SCALE: Record<StopTarget, { toUnit(x: number): number; fromUnit(y: number): number }> = {
  rate: { toUnit: (x) => x, fromUnit: (y) => y },
  shift: { toUnit: (d) => (d + 1) / 2, fromUnit: (y) => 2 * y - 1 },
};

/** A new sequence for a rule (its method, at its confidence). */
export function startSequence(rule: StopRule): SequenceState {
  return CONFSEQ_METHODS[rule.method].start({ alpha: 1 - rule.confidence, tOpt: rule.tOpt ?? rule.maxTrials });
}

/** Whether an interval [lo, hi] at n observations meets the rule, and why. */
export function stopReason(rule: StopRule, lo: number, hi: number, n: number): StopReason | null {
  if (rule.halfWidth !== undefined && (hi - lo) / 2 <= rule.halfWidth) return 'precision';
  if (rule.decide === 'sign' && (lo > 0 || hi < 0)) return 'sign';
  if (rule.decide === 'equivalence' && lo >= -(rule.delta ?? 0) && hi <= (rule.delta ?? 0)) return 'equivalence';
  return n >= rule.maxTrials ? 'max_trials' : null;
}

/** The sample sizes at which a cell is looked at: wave, 2·wave, … and max_trials. */
export function isLook(rule: StopRule, n: number): boolean {
  return n > 0 && (n % rule.wave === 0 || n === rule.maxTrials);
}

/**
 * A cell's status from its observations in order (on the target's scale; NaN for a trial that
 * gave no observation, such as an invalid answer: it counts as a trial, not as an observation).
 * Observations past the stopping look (there are none in a run that followed the rule) are not read.
 */
export function cellStatus(rule: StopRule, observations: ArrayLike<number>, state = startSequence(rule)): CellStatus {
  const scale = TARGET_SCALE[rule.target];
  let status: CellStatus = { n: 0, lo: scale.fromUnit(0), hi: scale.fromUnit(1), stopped: null };
  const end = Math.min(observations.length, rule.maxTrials);
  for (let i = 0; i < end; i++) {
    if (!Number.isNaN(observations[i])) state.push(scale.toUnit(observations[i]));
    const n = i + 1;
    if (!isLook(rule, n)) continue;
    const [l, u] = state.interval();
    const lo = scale.fromUnit(l), hi = scale.fromUnit(u);
    status = { n, lo, hi, stopped: stopReason(rule, lo, hi, n) };
    if (status.stopped) break;
  }
  return status;
}
