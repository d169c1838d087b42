/** The trial store's tables and the mapping between a stored row and a TrialRecord. */
import type { Action, TrialRecord, TrialStatus } from '../types.js';

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY,
  design_name TEXT NOT NULL,
  design_hash TEXT NOT NULL UNIQUE,
  design_json TEXT NOT NULL,
  tool_version TEXT NOT NULL,
  started TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS trials (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  model TEXT NOT NULL,
  game TEXT NOT NULL,
  framing TEXT NOT NULL,
  rep INTEGER NOT NULL,
  factors TEXT NOT NULL,
  prompt TEXT NOT NULL,
  request TEXT NOT NULL,
  response TEXT,
  text TEXT,
  action TEXT CHECK (action IN ('C', 'D')),
  p_cooperate REAL,
  scoring TEXT,
  model_snapshot TEXT,
  input_tokens INTEGER,
  output_tokens INTEGER,
  latency_ms REAL,
  status TEXT NOT NULL CHECK (status IN ('ok', 'invalid', 'error')),
  error TEXT,
  attempts INTEGER NOT NULL,
  PRIMARY KEY (run_id, model, game, framing, rep)
);
-- Covering index of the analysis queries (cellCounts, cellProbabilities): they read it alone,
-- never the wide rows with prompts and responses.
CREATE INDEX IF NOT EXISTS trials_cells ON trials (run_id, model, game, framing, factors, rep, status, action, p_cooperate);`;

export interface TrialRow {
  run_id: number; model: string; game: string; framing: string; rep: number; factors: string;
  prompt: string; request: string; response: string | null; text: string | null; action: Action | null;
  p_cooperate: number | null; scoring: string | null; model_snapshot: string | null;
  input_tokens: number | null; output_tokens: number | null; latency_ms: number | null;
  status: TrialStatus; error: string | null; attempts: number;
  /** Repeated-game columns (store version 2): NULL for one-shot trials, absent from older stores. */
  opponent?: string | null; match_id?: number | null; round?: number | null; seat?: number | null; opponent_move?: Action | null;
}

export const COLUMNS = ['run_id', 'model', 'game', 'framing', 'rep', 'factors', 'prompt', 'request', 'response', 'text', 'action',
  'p_cooperate', 'scoring', 'model_snapshot', 'input_tokens', 'output_tokens', 'latency_ms', 'status', 'error', 'attempts',
  'opponent', 'match_id', 'round', 'seat', 'opponent_move'] as const;
/** How many of COLUMNS a store without the repeated-game columns (version < 2) has. */
export const BASE_COLUMNS = 20;

export function toRecord(r: TrialRow): TrialRecord {
  return {
    runId: r.run_id, model: r.model, game: r.game, framing: r.framing, rep: r.rep,
    factors: JSON.parse(r.factors) as Record<string, string>, prompt: r.prompt, request: r.request,
    response: r.response, text: r.text, action: r.action, pCooperate: r.p_cooperate, scoring: r.scoring,
    modelSnapshot: r.model_snapshot, inputTokens: r.input_tokens, outputTokens: r.output_tokens,
    latencyMs: r.latency_ms, status: r.status, error: r.error, attempts: r.attempts,
    ...(r.match_id === null || r.match_id === undefined ? {} : {
      play: { opponent: r.opponent!, match: r.match_id, round: r.round!, seat: r.seat as 1 | 2, opponentMove: r.opponent_move ?? null },
    }),
  };
}

/** factors as stored: keys sorted, so equal factor sets are equal strings (GROUP BY relies on it). */
export function factorsJson(f: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.fromEntries(Object.keys(f).sort().map((k) => [k, f[k]])));
}


/** One stored decision of a repeated game, as the match engine rebuilds histories from it. */
export interface StoredMove {
  readonly match: number;
  readonly round: number;
  readonly seat: number;
  readonly status: TrialStatus;
  readonly action: 'C' | 'D' | null;
}

/**
 * The insert of one row of a table keyed by (run_id, model, game, framing, rep) — trials, probe_trials —
 * over `cols` (the five key columns first): a completed row (ok, invalid) is never replaced; an errored
 * one is, and its attempts accumulate. A refused insert changes no row.
 */
export function keyedUpsert(table: string, cols: readonly string[]): string {
  return `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})
    ON CONFLICT (run_id, model, game, framing, rep) DO UPDATE SET
    ${cols.slice(5).map((c) => (c === 'attempts' ? `attempts = ${table}.attempts + excluded.attempts` : `${c} = excluded.${c}`)).join(', ')}
    WHERE ${table}.status = 'error'`;
}
