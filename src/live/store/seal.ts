/**
 * The seal of a preregistered study: the plan's canonical JSON, its SHA-256 and the time it was
 * written, with the design it seals (hash and canonical JSON), in the store before the first trial.
 * One seal per store, never replaced. A table of its own, created when a plan is sealed (older
 * samegame versions ignore it). Trials carry the time they were stored (registry.ts, version 4).
 */
import type Database from 'better-sqlite3';
import { hasRegistry } from './registry.js';

export interface StoreSeal {
  readonly planSha256: string;
  readonly planJson: string;
  readonly designHash: string;
  readonly designJson: string;
  readonly sealed: string;
}

const hasTable = (db: Database.Database, name: string) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(name) !== undefined;

/** The store's seal, if it has one (a read-only store too). */
export function readSeal(db: Database.Database): StoreSeal | undefined {
  if (!hasTable(db, 'seal')) return undefined;
  const r = db.prepare('SELECT plan_sha256, plan_json, design_hash, design_json, sealed FROM seal WHERE id = 1').get() as
    { plan_sha256: string; plan_json: string; design_hash: string; design_json: string; sealed: string } | undefined;
  return r && { planSha256: r.plan_sha256, planJson: r.plan_json, designHash: r.design_hash, designJson: r.design_json, sealed: r.sealed };
}

/** How many trials the store holds (any run): a plan is sealed before the first. */
export function trialCount(db: Database.Database): number {
  return db.prepare('SELECT count(*) FROM trials').pluck().get() as number;
}

/** Write the seal (the caller checked there is none and no trial): one transaction. */
export function writeSeal(db: Database.Database, s: StoreSeal): void {
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS seal (id INTEGER PRIMARY KEY CHECK (id = 1), plan_sha256 TEXT NOT NULL, plan_json TEXT NOT NULL,
      design_hash TEXT NOT NULL, design_json TEXT NOT NULL, sealed TEXT NOT NULL)`);
    db.prepare('INSERT INTO seal (id, plan_sha256, plan_json, design_hash, design_json, sealed) VALUES (1, ?, ?, ?, ?, ?)')
      .run(s.planSha256, s.planJson, s.designHash, s.designJson, s.sealed);
  }).immediate();
}

/** The earliest and latest stored time of a run's trials, as ISO 8601 (null when no trial has one: rows stored before version 4). */
export function runTimes(db: Database.Database, runId: number): { first: string | null; last: string | null } {
  // stored_at came with the prompt registry, in the same migration (4)
  if (!hasRegistry(db)) return { first: null, last: null };
  const r = db.prepare('SELECT min(stored_at) AS first, max(stored_at) AS last FROM trials WHERE run_id = ?').get(runId) as { first: number | null;
    last: number | null };
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return { first: iso(r.first), last: iso(r.last) };
}

/** Each model's distinct stored snapshots, in order of first appearance. */
export function modelSnapshots(db: Database.Database, runId: number): Map<string, string[]> {
  const rows = db.prepare(`SELECT model, model_snapshot AS s, min(rowid) AS first FROM trials WHERE run_id = ? AND model_snapshot IS NOT NULL
    GROUP BY model, model_snapshot ORDER BY model, first`).all(runId) as { model: string; s: string }[];
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.model, [...(out.get(r.model) ?? []), r.s]);
  return out;
}

/** One entry of a run's prompt registry: the prompt's SHA-256, the cell that used it first, how many trials, the text. */
export interface RegistryEntry { readonly sha256: string; readonly model: string; readonly game: string; readonly framing: string;
  readonly trials: number; readonly text: string }

/** The distinct prompts of a run (version 4 stores; [] before), in order of first use. */
export function promptRegistry(db: Database.Database, runId: number): RegistryEntry[] {
  if (!hasRegistry(db)) return [];
  return db.prepare(`SELECT lower(hex(p.sha256)) AS sha256, t.model, t.game, t.framing, count(*) AS trials, p.text, min(t.rowid) AS first
    FROM trials t JOIN prompts p ON p.id = t.prompt_id WHERE t.run_id = ? GROUP BY p.id ORDER BY first`).all(runId) as RegistryEntry[];
}
