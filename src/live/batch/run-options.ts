/** The options and the summary of a batch run (run.ts). */
import type { Logger } from '../../core/logger.js';
import type { TrialStore } from '../store/store.js';
import type { Prices } from '../runner/plan.js';
import type { Clock } from '../runner/clock.js';
import type { TrialSpec } from '../types.js';
import type { Design } from '../design/types.js';
import type { BatchLimits } from './chunks.js';

export interface BatchRunOptions {
  readonly store: TrialStore;
  /** The store's path: chunk files are kept beside it, under <store>.batches/. */
  readonly storePath: string;
  readonly runId: number;
  readonly designName: string;
  /** The trials to send as batches (models of a provider with a batch vendor): decisions, and comprehension probes (expandProbes). */
  readonly specs: readonly TrialSpec[];
  /**
   * The run's design, when this batch run collects the probes of the run's open chunks that `specs` do not hold (an earlier
   * run's --probes): rebuilt from it and collected. Without it probe chunks not of the specs are left alone (a repeated
   * game's rounds and an adaptive run's waves: their run's probe phase collects them).
   */
  readonly design?: Design;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  /** The longest wait a retry hint of the batch service may ask for (default 60 s). */
  readonly maxWaitMs?: number;
  readonly limits?: BatchLimits;
  /** First wait between polls; later waits grow by half up to 5 minutes (or pollMs, when larger). */
  readonly pollMs: number;
  /** False: submit, poll once, collect what is finished and return (--no-wait). */
  readonly wait: boolean;
  /** Rounds at most (a round sends what the previous left pending). */
  readonly maxRounds: number;
  readonly prices?: (s: TrialSpec) => (Prices & { readonly batchDiscount?: number }) | undefined;
  readonly logger?: Logger;
  readonly clock?: Clock;
  /** Stop waiting (Ctrl-C): batches stay open and are collected by a later run. */
  readonly stop?: AbortSignal;
}

export interface BatchSummary {
  readonly total: number;
  readonly alreadyDone: number;
  /** Trials of the specs stored by this session. */
  readonly stored: number;
  /** Probes of an earlier run (not of the specs) found in the open chunks, and those of them this session stored. */
  readonly earlier: number;
  readonly earlierStored: number;
  /** Trials neither stored nor in an open batch. */
  readonly pending: number;
  /** Chunks still open (not collected) at the end. */
  readonly open: number;
  /** Batches this session created. */
  readonly created: number;
  /** Tokens (input + output) of the decisions this session stored (a run's summary counts its trials' tokens). */
  readonly tokens: number;
  /** Tokens of the comprehension probes this session stored (none when it sent none). */
  readonly probeTokens?: number;
}
