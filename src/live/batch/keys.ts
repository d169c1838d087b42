/**
 * The keys of a run's batch lines. A decision's is its trial key, model|game|framing|rep (ids
 * never contain "|"); a comprehension probe (src/live/probes/), whose reps count from 0 as a
 * cell's decisions do, has a key space of its own: "probe|" and its trial key — in the chunk
 * members (a chunk holds one kind, recorded with it: store migration 6) and in the custom id
 * its line carries — so a probe is never taken for the decision of the same rep, nor its answer.
 */
import type { TrialSpec } from '../types.js';

/** A trial's key: model|game|framing|rep. */
export const trialKey = (s: { model: { id: string } | string; game: string; framing: string; rep: number }): string =>
  `${typeof s.model === 'string' ? s.model : s.model.id}|${s.game}|${s.framing}|${s.rep}`;

/** What a batch line asks: a decision of a cell, or a comprehension probe. */
export const BATCH_KINDS = ['decision', 'probe'] as const;
export type BatchKind = (typeof BATCH_KINDS)[number];

/** A probe carries its question in its context (expandProbes); every other spec is a decision. */
export const kindOf = (s: TrialSpec): BatchKind => (s.context.probe === undefined ? 'decision' : 'probe');

/** The key of a trial of a kind among a run's batch lines. */
export const memberKey = (kind: BatchKind, k: Parameters<typeof trialKey>[0]): string => `${kind === 'probe' ? 'probe|' : ''}${trialKey(k)}`;

/** A spec's batch key: its custom id (Anthropic: hashed), and its key among open chunks' members. */
export const batchKey = (s: TrialSpec): string => memberKey(kindOf(s), s);
