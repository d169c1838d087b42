/**
 * Schema migrations of the trial store, by SQLite's user_version. Version 0 is the store as
 * `samegame run` first wrote it (runs, trials); each migration adds tables or nullable columns.
 * Versions 1 to 3 stay readable by an older samegame; from version 4 a trial's texts live in the
 * prompt registry (registry.ts), which only version 4 and later read. A migration runs in
 * one transaction with the version bump: a kill -9 leaves the store at the old version or the new.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { RUN_KINDS, storedRunKind } from './run-kind.js';
import { addPromptRegistry } from './registry.js';

const MIGRATIONS: readonly ((db: Database.Database) => void)[] = [
  // 1: Batch API runs. One row per chunk (one batch file), its members (trial keys), and a random
  // tag naming this store in the batches' metadata so a crashed run can find its own batches.
  (db) => {
    db.exec(`
CREATE TABLE IF NOT EXISTS batch_store (id INTEGER PRIMARY KEY CHECK (id = 1), tag TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS batch_chunks (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  model TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('prepared', 'uploaded', 'created', 'collected')),
  file TEXT NOT NULL,
  file_hash TEXT NOT NULL,
  lines INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  file_id TEXT,
  batch_id TEXT,
  status TEXT,
  completed INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  stored INTEGER NOT NULL DEFAULT 0,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cost REAL,
  updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS batch_members (
  chunk_id INTEGER NOT NULL REFERENCES batch_chunks(id),
  model TEXT NOT NULL,
  game TEXT NOT NULL,
  framing TEXT NOT NULL,
  rep INTEGER NOT NULL,
  PRIMARY KEY (chunk_id, model, game, framing, rep)
);
CREATE INDEX IF NOT EXISTS batch_members_key ON batch_members (model, game, framing, rep);`);
    db.prepare('INSERT OR IGNORE INTO batch_store (id, tag) VALUES (1, ?)').run(randomUUID());
  },
  // 2: repeated games (src/live/repeated/). A decision's key adds (opponent, match_id, round, seat);
  // NULL for one-shot trials. opponent_move is a fixed strategy's move in the same round.
  (db) => {
    for (const c of PLAY_COLUMNS) db.exec(`ALTER TABLE trials ADD COLUMN ${c}`);
    db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS trials_play ON trials (run_id, model, game, framing, opponent, match_id, round, seat)
      WHERE match_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS trials_match ON trials (run_id, match_id, round, seat) WHERE match_id IS NOT NULL;`);
  },
  // 3: the run's kind (one-shot, repeated, enrichment), recorded when a run is opened; existing
  // runs get the kind their stored design implies (run-kind.ts).
  (db) => {
    db.exec(`ALTER TABLE runs ADD COLUMN kind TEXT CHECK (kind IN (${RUN_KINDS.map((k) => `'${k}'`).join(', ')}))`);
    const set = db.prepare('UPDATE runs SET kind = ? WHERE id = ?');
    for (const r of db.prepare('SELECT id, design_json FROM runs').all() as { id: number; design_json: string }[]) {
      set.run(storedRunKind(undefined, r.design_json), r.id);
    }
  },
  // 4: the prompt registry: every distinct prompt, request and response text once, by SHA-256;
  // trials reference it, and the texts already stored move into it (registry.ts).
  addPromptRegistry,
  // 5: comprehension probes (src/live/probes/), trials of their own kind: never in a decision cell.
  (db) => {
    db.exec(`CREATE TABLE IF NOT EXISTS probe_trials (
  run_id INTEGER NOT NULL REFERENCES runs(id), model TEXT NOT NULL, game TEXT NOT NULL, framing TEXT NOT NULL, rep INTEGER NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('CC', 'CD', 'DC', 'DD')), player TEXT NOT NULL CHECK (player IN ('you', 'other')),
  expected REAL NOT NULL, prompt TEXT NOT NULL, request TEXT NOT NULL, response TEXT, text TEXT, answer REAL,
  score TEXT CHECK (score IN ('correct', 'wrong', 'invalid')), model_snapshot TEXT, input_tokens INTEGER, output_tokens INTEGER,
  latency_ms REAL, status TEXT NOT NULL CHECK (status IN ('ok', 'invalid', 'error')), error TEXT, attempts INTEGER NOT NULL,
  PRIMARY KEY (run_id, model, game, framing, rep))`);
  },
  // 6: comprehension probes through the Batch APIs. A chunk holds decisions or probes (batch/keys.ts): its members are
  // keys of that kind, so a probe and the decision of the same rep are never taken for each other.
  (db) => {
    db.exec("ALTER TABLE batch_chunks ADD COLUMN kind TEXT NOT NULL DEFAULT 'decision' CHECK (kind IN ('decision', 'probe'))");
  },
];

/** The columns migration 2 adds to trials. */
const PLAY_COLUMNS = ['opponent TEXT', 'match_id INTEGER', 'round INTEGER', 'seat INTEGER CHECK (seat IN (1, 2))',
  "opponent_move TEXT CHECK (opponent_move IN ('C', 'D'))"] as const;

/** True when the store's trials carry the repeated-game columns (version 2 and later). */
export function hasPlayColumns(db: Database.Database): boolean {
  return (db.prepare("SELECT count(*) FROM pragma_table_info('trials') WHERE name = 'match_id'").pluck().get() as number) === 1;
}

export const STORE_VERSION = MIGRATIONS.length;

/** The store's schema version (0 for a store written before migrations existed). */
export function storeVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Bring a writable store to the current version, one transaction per migration. */
export function migrate(db: Database.Database): void {
  for (let v = storeVersion(db); v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      MIGRATIONS[v](db);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
