/**
 * The trial store: SQLite through better-sqlite3, WAL with synchronous = FULL, so a
 * trial is on disk when its insert returns — a trial is committed before it counts, and a kill -9
 * loses at most the calls in flight. A run is identified by its design hash: opening the same
 * design on the same store resumes that run. Completed trials (ok, invalid) are never replaced;
 * errored trials are replaced when retried.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from '../../core/errors.js';
import type { TrialRecord, TrialStatus } from '../types.js';
import type { StoredOutcome } from '../../stats/confseq/units.js';
import { checkIntegrity, storeGuard } from './integrity.js';
import { currentHolder, releaseWriterLock, takeWriterLock, type LockHolder } from './lock.js';
import { BASE_COLUMNS, COLUMNS, SCHEMA, factorsJson, keyedUpsert, toRecord, type StoredMove, type TrialRow } from './rows.js';
import { hasPlayColumns, migrate } from './migrations.js';
import { hasRegistry, REGISTRY_REFS, TextRegistry, trialSelect } from './registry.js';
import { storedRunKind, type RunKind } from './run-kind.js';
import { storeMsg } from './messages.js';
export { factorsJson, type StoredMove } from './rows.js';
export type { RunKind } from './run-kind.js';

export type { CellCount, CellProbabilities, RunInfo, TrialKey } from './store-types.js';
import type { CellCount, CellProbabilities, RunInfo, TrialKey } from './store-types.js';

/** Rolls back write()'s transaction when the trial was already complete. */
const REFUSED = new Error('completed trial kept');

export class TrialStore {
  private readonly db: Database.Database;
  private readonly stmts: { isComplete: Database.Statement; runByHash: Database.Statement };
  /** Prepared on the first write (the writer's store is migrated; a read-only one may predate the columns). */
  private writeStmt: Database.Statement | undefined;
  /** Whether writeStmt writes the repeated-game columns (the store had them when it was prepared). */
  private writesPlay = false;
  /** The prompt registry writeStmt references (the store had it when it was prepared), else texts inline. */
  private texts: TextRegistry | undefined;

  /** The writer lock's holder, when this is the writer (TrialStore.open). */
  private readonly writer: LockHolder | undefined;

  private constructor(db: Database.Database, writer?: LockHolder) {
    this.db = db;
    this.writer = writer;
    this.stmts = {
      isComplete: db.prepare(`SELECT 1 FROM trials WHERE run_id = ? AND model = ? AND game = ? AND framing = ? AND rep = ?
        AND status IN ('ok', 'invalid')`).pluck(),
      runByHash: db.prepare('SELECT * FROM runs WHERE design_hash = ?'),
    };
  }

  /** Open (creating when needed) for writing: checked (integrity.ts), then the writer lock taken (lock.ts). */
  static open(path: string, o: { verify?: boolean } = {}): TrialStore {
    let db: Database.Database | undefined;
    try {
      mkdirSync(dirname(path), { recursive: true });
      db = new Database(path);
      db.pragma('busy_timeout = 5000');
      checkIntegrity(db, path, o.verify);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.exec(SCHEMA);
      const me = currentHolder();
      const holder = takeWriterLock(db, me);
      if (holder) throw new UserError(storeMsg.storeLocked(path, holder.pid, holder.host, holder.since));
      return new TrialStore(db, me);
    } catch (e) {
      db?.close();
      if (e instanceof UserError) throw e;
      throw new UserError(storeMsg.storeUnreadable(path, e instanceof Error ? e.message : String(e)));
    }
  }

  /**
   * Open an existing store read-only (export, analysis, plan), without the lock, so it works while a run
   * writes (through the run's -wal/-shm). A store at rest is in rollback mode (see close): read without
   * creating -wal/-shm files, also from a read-only directory.
   */
  static openExisting(path: string, o: { verify?: boolean } = {}): TrialStore {
    if (!existsSync(path)) throw new UserError(storeMsg.noSuchStore(path));
    return storeGuard(path, () => {
      let db: Database.Database | undefined;
      try {
        db = new Database(path, { readonly: true, fileMustExist: true });
        db.pragma('busy_timeout = 5000');
        const has = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('runs', 'trials')").pluck().get();
        if (has !== 2) throw new UserError(storeMsg.notAStore(path));
        checkIntegrity(db, path, o.verify);
        return new TrialStore(db);
      } catch (e) {
        db?.close();
        throw e;
      }
    }, 'open');
  }

  /** The run of this design hash, created when absent. `resumed` is true when it already existed. */
  /** With `kind`, the store is brought to the current version first and the run's kind recorded (migration 3). */
  openRun(d: { name: string; hash: string; json: string; toolVersion: string; started: string; kind?: RunKind }): { run: RunInfo; resumed: boolean } {
    if (d.kind !== undefined) this.preparePlay();
    const found = this.findRun(d.hash);
    if (found) return { run: found, resumed: true };
    const k = d.kind === undefined ? ['', ''] : [', kind', ', ?'];
    this.db.prepare(`INSERT INTO runs (design_name, design_hash, design_json, tool_version, started${k[0]}) VALUES (?, ?, ?, ?, ?${k[1]})`)
      .run(d.name, d.hash, d.json, d.toolVersion, d.started, ...(d.kind === undefined ? [] : [d.kind]));
    return { run: this.findRun(d.hash)!, resumed: false };
  }

  findRun(hash: string): RunInfo | undefined {
    return runInfo(this.stmts.runByHash.get(hash) as Record<string, unknown> | undefined);
  }

  runs(): RunInfo[] {
    return (this.db.prepare('SELECT * FROM runs ORDER BY id').all() as Record<string, unknown>[]).map((r) => runInfo(r)!);
  }

  isComplete(runId: number, k: TrialKey): boolean {
    return this.stmts.isComplete.get(runId, k.model, k.game, k.framing, k.rep) !== undefined;
  }

  /** Commit one trial (its own transaction, fsynced). Returns false when a completed trial was already stored. */
  write(t: TrialRecord): boolean {
    if (!this.writeStmt) this.prepareWrite();
    if (t.play && !this.writesPlay) throw new Error('repeated-game decision written to a store not prepared for them (preparePlay)');
    const p = t.play;
    const row = {
      run_id: t.runId, model: t.model, game: t.game, framing: t.framing, rep: t.rep, factors: factorsJson(t.factors),
      prompt: t.prompt, request: t.request, response: t.response, text: t.text, action: t.action,
      p_cooperate: t.pCooperate, scoring: t.scoring, model_snapshot: t.modelSnapshot, input_tokens: t.inputTokens,
      output_tokens: t.outputTokens, latency_ms: t.latencyMs, status: t.status, error: t.error, attempts: t.attempts,
      opponent: p?.opponent ?? null, match_id: p?.match ?? null, round: p?.round ?? null, seat: p?.seat ?? null, opponent_move: p?.opponentMove ?? null,
    };
    const texts = this.texts;
    if (!texts) return this.writeStmt!.run(row).changes === 1;
    // The texts and the trial in one transaction: a trial is never stored without its texts, nor a refused trial's texts kept.
    try {
      this.db.transaction(() => {
        const ids = { prompt_id: texts.id(t.prompt, true), request_id: texts.id(t.request, true),
          response_id: t.response === null ? null : texts.id(t.response, false) };
        const stored = this.writeStmt!.run({ ...row, prompt: '', request: '', response: null, ...ids, stored_at: Date.now() });
        if (stored.changes !== 1) throw REFUSED;
      }).immediate();
      return true;
    } catch (e) {
      texts.forget();
      if (e === REFUSED) return false;
      throw e;
    }
  }

  /** The insert of write(), for the columns this store has (never migrated: no repeated-game columns, texts inline). */
  private prepareWrite(): void {
    this.writesPlay = hasPlayColumns(this.db);
    this.texts = hasRegistry(this.db) ? new TextRegistry(this.db) : undefined;
    const refs = this.texts ? [...REGISTRY_REFS.map(([r]) => r), 'stored_at'] : [];
    const cols: string[] = [...(this.writesPlay ? COLUMNS : COLUMNS.slice(0, BASE_COLUMNS)), ...refs];
    this.writeStmt = this.db.prepare(keyedUpsert('trials', cols));
  }

  /** Trials by status for a run (or the whole store). */
  statusCounts(runId?: number): Record<TrialStatus, number> {
    const rows = this.db.prepare(`SELECT status, count(*) AS n FROM trials ${runId === undefined ? '' : 'WHERE run_id = ?'} GROUP BY status`)
      .all(...(runId === undefined ? [] : [runId])) as { status: TrialStatus; n: number }[];
    const out: Record<TrialStatus, number> = { ok: 0, invalid: 0, error: 0 };
    for (const r of rows) out[r.status] = r.n;
    return out;
  }

  /**
   * Every trial, streamed in key order (run, model, game, framing, factors, rep) — never all in memory.
   * With `order`, models, games and framings come in the order it lists (a design's), those it
   * does not list after them by name: the order in which analyze lists the cells.
   */
  *trials(runId?: number, order?: { readonly models: readonly string[]; readonly games: readonly string[];
    readonly framings: readonly string[] }): Generator<TrialRecord> {
    const where = runId === undefined ? '' : 'WHERE run_id = ?';
    const rank = (col: string) => `coalesce((SELECT j.key FROM json_each(?) j WHERE j.value = ${col}), 1e9), ${col}`;
    // Within a cell's model, game and framing, the levels of extra factors come in the order cellCounts lists them.
    const by = `${order ? `${rank('model')}, ${rank('game')}, ${rank('framing')}` : 'model, game, framing'}, factors`;
    const params = order ? [JSON.stringify(order.models), JSON.stringify(order.games), JSON.stringify(order.framings)] : [];
    const sel = trialSelect(this.db, hasPlayColumns(this.db));
    const it = this.db.prepare(`SELECT ${sel.cols} FROM ${sel.from} ${where} ORDER BY t.run_id, ${by}, t.rep`)
      .iterate(...(runId === undefined ? [] : [runId]), ...params) as IterableIterator<TrialRow>;
    for (const r of it) yield toRecord(r);
  }

  /** The first stored prompt of each framing of a run (SQLite takes the bare column from the row of min(rowid)). */
  framingPrompts(runId: number): { framing: string; prompt: string }[] {
    const first = 'SELECT framing, min(rowid) AS first FROM trials WHERE run_id = ? GROUP BY framing';
    const text = hasRegistry(this.db) ? 'coalesce((SELECT p.text FROM prompts p WHERE p.id = t.prompt_id), t.prompt)' : 't.prompt';
    return this.db.prepare(`SELECT f.framing, ${text} AS prompt FROM (${first}) f JOIN trials t ON t.rowid = f.first ORDER BY f.framing`)
      .all(runId) as { framing: string; prompt: string }[];
  }

  /** Distinct factor names over a run's trials (for export columns), sorted. */
  factorNames(runId?: number): string[] {
    const where = runId === undefined ? '' : 'WHERE t.run_id = ?';
    return this.db.prepare(`SELECT DISTINCT j.key FROM trials t, json_each(t.factors) j ${where} ORDER BY j.key`).pluck()
      .all(...(runId === undefined ? [] : [runId])) as string[];
  }

  /** Per-cell tallies, computed by SQLite (GROUP BY), in cell order. */
  cellCounts(runId: number): CellCount[] {
    const rows = this.db.prepare(`SELECT model, game, framing, factors,
        sum(status = 'ok' AND action = 'C') AS c, sum(status = 'ok' AND action = 'D') AS d,
        sum(status = 'invalid') AS inv, sum(status = 'error') AS err, count(p_cooperate) AS scored,
        sum(status = 'ok' AND p_cooperate IS NULL) AS unscored
      FROM trials WHERE run_id = ? GROUP BY model, game, framing, factors ORDER BY model, game, framing, factors`)
      .all(runId) as { model: string; game: string; framing: string; factors: string; c: number; d: number; inv: number; err: number; scored: number;
        unscored: number }[];
    return rows.map((r) => ({
      model: r.model, game: r.game, framing: r.framing, factors: JSON.parse(r.factors) as Record<string, string>,
      validC: r.c, validD: r.d, invalid: r.inv, error: r.err, scored: r.scored, unscored: r.unscored,
    }));
  }

  /** The status and action of every trial of a run, in no order (an adaptive run's looks). */
  trialOutcomes(runId: number): StoredOutcome[] {
    return this.db.prepare('SELECT model, game, framing, rep, status, action FROM trials WHERE run_id = ?').all(runId) as StoredOutcome[];
  }

  /** Per-trial p_cooperate of each cell, streamed one cell at a time (first-token scoring). */
  *cellProbabilities(runId: number): Generator<CellProbabilities> {
    const it = this.db.prepare(`SELECT model, game, framing, factors, p_cooperate AS p FROM trials
      WHERE run_id = ? AND p_cooperate IS NOT NULL ORDER BY model, game, framing, factors, rep`)
      .iterate(runId) as IterableIterator<{ model: string; game: string; framing: string; factors: string; p: number }>;
    let cur: { model: string; game: string; framing: string; factors: string; values: number[] } | undefined;
    const emit = (c: NonNullable<typeof cur>): CellProbabilities => ({
      model: c.model, game: c.game, framing: c.framing, factors: JSON.parse(c.factors) as Record<string, string>,
      values: Float64Array.from(c.values),
    });
    for (const r of it) {
      if (cur && (cur.model !== r.model || cur.game !== r.game || cur.framing !== r.framing || cur.factors !== r.factors)) {
        yield emit(cur);
        cur = undefined;
      }
      cur ??= { model: r.model, game: r.game, framing: r.framing, factors: r.factors, values: [] };
      cur.values.push(r.p);
    }
    if (cur) yield emit(cur);
  }

  /** Bring the store to the current version (the repeated-game columns, the run kind) before a run writes. */
  preparePlay(): void {
    migrate(this.db);
    this.writeStmt = undefined;
  }

  /** A run's stored repeated-game moves, light rows (no prompts) in (match, round, seat) order; [] for a store without them. */
  playMoves(runId: number): StoredMove[] {
    if (!hasPlayColumns(this.db)) return [];
    return this.db.prepare(`SELECT match_id AS match, round, seat, status, action FROM trials
      WHERE run_id = ? AND match_id IS NOT NULL ORDER BY match_id, round, seat`).all(runId) as StoredMove[];
  }

  /** A run's repeated-game trials, streamed in (match, round, seat) order. */
  *playTrials(runId: number): Generator<TrialRecord> {
    if (!hasPlayColumns(this.db)) return;
    const sel = trialSelect(this.db, true);
    const it = this.db.prepare(`SELECT ${sel.cols} FROM ${sel.from} WHERE t.run_id = ? AND t.match_id IS NOT NULL ORDER BY t.match_id, t.round, t.seat`)
      .iterate(runId) as IterableIterator<TrialRow>;
    for (const r of it) yield toRecord(r);
  }

  /** The SQLite handle, for tables other modules keep in the same file (batch-chunks.ts). */
  get database(): Database.Database {
    return this.db;
  }

  /**
   * Close. The writer gives its lock back and returns the store to rollback mode: a store at rest is one
   * file that read-only users can read, and readers leave no -wal/-shm. WAL is for the run; when a reader
   * still has the store open, the switch is skipped (no wait).
   */
  close(): void {
    if (!this.db.open) return;
    if (this.writer) {
      try {
        releaseWriterLock(this.db, this.writer); // left behind on failure: a dead holder's lock is taken over
        this.db.pragma('busy_timeout = 0');
        this.db.pragma('journal_mode = DELETE');
      } catch { /* a reader holds it: it stays in WAL mode, which readers handle too */ }
    }
    this.db.close();
  }
}

function runInfo(r: Record<string, unknown> | undefined): RunInfo | undefined {
  return r && {
    id: r.id as number, designName: r.design_name as string, designHash: r.design_hash as string,
    designJson: r.design_json as string, toolVersion: r.tool_version as string, started: r.started as string,
    kind: storedRunKind(r.kind, r.design_json as string),
  };
}
