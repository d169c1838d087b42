/**
 * The probe trials of a store (docs/methods.md §18c): a table of their own (`probe_trials`, store
 * migration 5), keyed like decisions by (run, model, game, framing, rep), so they are never read
 * as a decision of a cell. A completed probe (ok: a number, invalid: none) is never asked again nor
 * replaced; an errored one is replaced when retried, its attempts accumulated.
 */
import type Database from 'better-sqlite3';
import { keyedUpsert } from '../store/rows.js';
import type { TrialStore } from '../store/store.js';
import type { TrialRecord, TrialSpec } from '../types.js';
import { probeAnswer, scoreProbe, type ProbeScore } from './score.js';
import type { ProbeContext } from './questions.js';
import type { ScoredProbe } from './comprehension.js';

/** True when the store has the probe table (a store read-only and never migrated to version 5 has none). */
export function hasProbeTable(db: Database.Database): boolean {
  return db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'probe_trials'").pluck().get() === 1;
}

const COLUMNS = ['run_id', 'model', 'game', 'framing', 'rep', 'outcome', 'player', 'expected', 'prompt', 'request', 'response', 'text', 'answer',
  'score', 'model_snapshot', 'input_tokens', 'output_tokens', 'latency_ms', 'status', 'error', 'attempts'] as const;

/** A probe's context: the question and the game's answer (expandProbes puts it in every probe's spec). */
export function probeOf(s: TrialSpec): ProbeContext {
  const p = s.context.probe;
  if (p === undefined) throw new Error(`trial ${s.model.id}/${s.game}/${s.framing}/${s.rep} is not a probe`);
  return p as ProbeContext;
}

/** Whether a probe of a run is answered (ok or invalid) in a store; none is without the probe table. */
export function probeAnswered(store: TrialStore, runId: number): (s: TrialSpec) => boolean {
  const db = store.database;
  if (!hasProbeTable(db)) return () => false;
  const done = db.prepare(`SELECT 1 FROM probe_trials WHERE run_id = ? AND model = ? AND game = ? AND framing = ? AND rep = ?
    AND status IN ('ok', 'invalid')`).pluck();
  return (s) => done.get(runId, s.model.id, s.game, s.framing, s.rep) !== undefined;
}

/**
 * Where a run's probes go: the runner's sink over probe_trials (the store must be migrated: TrialStore.preparePlay);
 * `write` returns false when the probe was already complete (its row kept).
 */
export function probeSink(store: TrialStore, runId: number): { isComplete(s: TrialSpec): boolean; write(rec: TrialRecord, s: TrialSpec): boolean } {
  const db = store.database;
  const insert = db.prepare(keyedUpsert('probe_trials', COLUMNS));
  return {
    isComplete: probeAnswered(store, runId),
    write: (rec, s) => {
      const p = probeOf(s);
      const score = rec.status === 'error' ? null : scoreProbe(rec.text, p);
      return insert.run({
        run_id: rec.runId, model: rec.model, game: rec.game, framing: rec.framing, rep: rec.rep, outcome: p.outcome, player: p.player,
        expected: p.expected, prompt: rec.prompt, request: rec.request, response: rec.response, text: rec.text,
        answer: rec.text === null ? null : probeAnswer(rec.text), score, model_snapshot: rec.modelSnapshot, input_tokens: rec.inputTokens,
        output_tokens: rec.outputTokens, latency_ms: rec.latencyMs, status: rec.status, error: rec.error, attempts: rec.attempts,
      }).changes === 1;
    },
  };
}

/** A stored probe: its key, question, status and score (null for a failed call, which is not counted as asked). */
export interface StoredProbe {
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly rep: number;
  readonly outcome: string;
  readonly player: 'you' | 'other';
  readonly status: 'ok' | 'invalid' | 'error';
  readonly score: ProbeScore | null;
}

/** A run's stored probes in key order; [] for a store without the probe table. */
export function storedProbes(store: TrialStore, runId: number): StoredProbe[] {
  const db = store.database;
  if (!hasProbeTable(db)) return [];
  return db.prepare(`SELECT model, game, framing, rep, outcome, player, status, score FROM probe_trials WHERE run_id = ?
    ORDER BY model, game, framing, rep`).all(runId) as StoredProbe[];
}

/** The answered probes (ok or invalid; a failed call was not answered) as the comprehension table counts them. */
export function scoredProbes(probes: readonly StoredProbe[]): ScoredProbe[] {
  return probes.filter((p) => p.score !== null).map((p) => ({ model: p.model, game: p.game, framing: p.framing, outcome: p.outcome, score: p.score! }));
}

/** A stored probe row, every column (the export's reader). */
export interface ProbeRow {
  readonly run_id: number;
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly rep: number;
  readonly outcome: string;
  readonly player: 'you' | 'other';
  readonly expected: number;
  readonly prompt: string;
  readonly request: string;
  readonly response: string | null;
  readonly text: string | null;
  readonly answer: number | null;
  readonly score: ProbeScore | null;
  readonly model_snapshot: string | null;
  readonly input_tokens: number | null;
  readonly output_tokens: number | null;
  readonly latency_ms: number | null;
  readonly status: 'ok' | 'invalid' | 'error';
  readonly error: string | null;
  readonly attempts: number;
}

/** Whether a store holds probes (of one run with `runId`). */
export function hasProbes(store: TrialStore, runId?: number): boolean {
  if (!hasProbeTable(store.database)) return false;
  return store.database.prepare(`SELECT 1 FROM probe_trials ${runId === undefined ? '' : 'WHERE run_id = ?'} LIMIT 1`).pluck()
    .get(...(runId === undefined ? [] : [runId])) !== undefined;
}

/** Every probe row (of one run with `runId`), streamed in key order (run, model, game, framing, rep). */
export function* probeRows(store: TrialStore, runId?: number): Generator<ProbeRow> {
  if (!hasProbeTable(store.database)) return;
  yield* store.database.prepare(`SELECT ${COLUMNS.join(', ')} FROM probe_trials ${runId === undefined ? '' : 'WHERE run_id = ?'}
    ORDER BY run_id, model, game, framing, rep`).iterate(...(runId === undefined ? [] : [runId])) as IterableIterator<ProbeRow>;
}
