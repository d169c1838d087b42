/**
 * Confidence sequences for the mean of observations in [0, 1]: a sequence of intervals
 * (C_t), one per sample size t, with P(μ ∈ C_t for every t ≥ 1) ≥ 1 − α (time-uniform coverage),
 * so that the interval at any data-dependent stopping time keeps its level (Howard, Ramdas,
 * McAuliffe and Sekhon 2021; Waudby-Smith and Ramdas 2023). The methods are a typed registry,
 * `CONFSEQ_METHODS` (registry.ts).
 */

/** The settings every method takes; a method ignores those that are not its own. */
export interface ConfSeqSettings {
  /** 1 − the confidence level: the probability that the sequence ever misses the mean. */
  readonly alpha: number;
  /** Closed-form boundaries: the sample size at which the boundary is tightest (default 100). */
  readonly tOpt?: number;
  /** The betting sequence: the number of steps of the grid of candidate means over [0, 1] (default 1000). */
  readonly breaks?: number;
  /** Intersect each interval with all earlier ones (default true), which keeps the coverage. */
  readonly intersect?: boolean;
}

/** A sequence being built one observation at a time. */
export interface SequenceState {
  /** Adds the next observation x ∈ [0, 1]. */
  push(x: number): void;
  /** The number of observations pushed. */
  readonly t: number;
  /** The interval [lo, hi] after the observations pushed so far ([0, 1] before any). */
  interval(): readonly [number, number];
}

export interface ConfSeqMethod {
  /** What it is, for the outputs and the help text. */
  readonly describe: string;
  /** Where its formula is from. */
  readonly source: string;
  /** A new, empty sequence. */
  start(settings: ConfSeqSettings): SequenceState;
}
