/**
 * The plain values the trial store hands out: a run's info, a trial's key, a cell's tallies and its
 * first-token probabilities (store.ts re-exports them).
 */
import type { RunKind } from './run-kind.js';

export interface RunInfo {
  readonly id: number;
  readonly designName: string;
  readonly designHash: string;
  readonly designJson: string;
  readonly toolVersion: string;
  readonly started: string;
  /** one-shot, repeated or enrichment: recorded with the run, else inferred from its design (run-kind.ts). */
  readonly kind: RunKind;
}

export interface TrialKey {
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly rep: number;
}

/** One cell's tallies (valid C, valid D, invalid, error) and how many trials carry p_cooperate. */
export interface CellCount {
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly factors: Readonly<Record<string, string>>;
  readonly validC: number;
  readonly validD: number;
  readonly invalid: number;
  readonly error: number;
  readonly scored: number;
  /** ok trials without a first-token probability (all of a sampled cell's; none of a logprob-scored cell's). */
  readonly unscored: number;
}

export interface CellProbabilities {
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly factors: Readonly<Record<string, string>>;
  /** p_cooperate of every trial of the cell that has one, in rep order. */
  readonly values: Float64Array;
}
