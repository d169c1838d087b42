/**
 * The batch tables of the trial store: each chunk (one Batch API input file) moves through
 *   prepared (file written, its hash) → uploaded (file id) → created (batch id) → collected,
 * every step committed (fsynced) before the next call is made, so a run killed at any point
 * knows, on resume, exactly which calls it already made. A trial belongs to at most one chunk
 * that is not collected: it is never sent in a second batch while one may still answer it. A chunk
 * holds one kind of line, decisions or comprehension probes (its `kind`, store migration 6), and
 * its members are keys of that kind (batch/keys.ts): a probe is never taken for a decision.
 */
import type Database from 'better-sqlite3';
import type { TrialStore, TrialKey } from './store.js';
import { migrate } from './migrations.js';
import type { TrialRecord } from '../types.js';
import { BATCH_KINDS, memberKey, type BatchKind } from '../batch/keys.js';

export type ChunkState = 'prepared' | 'uploaded' | 'created' | 'collected';

export interface ChunkRow {
  readonly id: number;
  readonly runId: number;
  readonly model: string;
  /** Decisions or probes ('decision' for a store before migration 6). */
  readonly kind: BatchKind;
  readonly endpoint: string;
  readonly state: ChunkState;
  readonly file: string;
  readonly fileHash: string;
  readonly lines: number;
  readonly bytes: number;
  readonly fileId: string | null;
  readonly batchId: string | null;
  readonly status: string | null;
  readonly completed: number;
  readonly failed: number;
  readonly stored: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cost: number | null;
  /** When the chunk last changed state or was polled (ISO time). */
  readonly updated: string;
}

export interface NewChunk {
  readonly runId: number;
  readonly model: string;
  readonly kind: BatchKind;
  readonly endpoint: string;
  readonly file: string;
  readonly fileHash: string;
  readonly lines: number;
  readonly bytes: number;
  readonly members: readonly TrialKey[];
}

export interface Collected {
  readonly status: string;
  readonly records: readonly TrialRecord[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cost: number | null;
}

const now = () => new Date().toISOString();

/** A batch table samegame could not have written: a column missing, text where a number belongs. */
export class BatchTableFault extends Error {}

type Kind = 'int' | 'text' | 'text?' | 'number?';
const CHUNK_COLUMN_KINDS: Readonly<Record<string, Kind>> = {
  id: 'int', run_id: 'int', model: 'text', endpoint: 'text', state: 'text', file: 'text', file_hash: 'text', lines: 'int', bytes: 'int',
  file_id: 'text?', batch_id: 'text?', status: 'text?', completed: 'int', failed: 'int', stored: 'int', input_tokens: 'int',
  output_tokens: 'int', cost: 'number?',
};
const STATES: readonly string[] = ['prepared', 'uploaded', 'created', 'collected'];

/** Each column of a chunk row of the kind samegame writes, or a BatchTableFault naming the chunk and the column. */
function checkChunk(r: Record<string, unknown>): void {
  const where = `chunk ${typeof r.id === 'number' ? r.id : JSON.stringify(String(r.id))}`;
  for (const [col, kind] of Object.entries(CHUNK_COLUMN_KINDS)) {
    if (!(col in r)) throw new BatchTableFault(`the table has no column ${col}`);
    const v = r[col];
    const ok = kind === 'int' ? Number.isSafeInteger(v) && (v as number) >= 0
      : kind === 'text' ? typeof v === 'string'
        : kind === 'text?' ? v === null || typeof v === 'string'
          : v === null || (typeof v === 'number' && Number.isFinite(v));
    if (!ok) throw new BatchTableFault(
      `${where}: ${col} is ${JSON.stringify(v)}, not ${kind === 'int' ? 'a count' : kind === 'number?' ? 'a number' : 'text'}`);
  }
  if (!STATES.includes(r.state as string)) throw new BatchTableFault(`${where}: state is ${JSON.stringify(r.state)}, not one of ${STATES.join(', ')}`);
  if ('kind' in r && !(BATCH_KINDS as readonly unknown[]).includes(r.kind)) {
    throw new BatchTableFault(`${where}: kind is ${JSON.stringify(r.kind)}, not one of ${BATCH_KINDS.join(', ')}`);
  }
}

function toChunk(r: Record<string, unknown>): ChunkRow {
  checkChunk(r);
  return {
    id: r.id as number, runId: r.run_id as number, model: r.model as string, kind: (r.kind ?? 'decision') as BatchKind, endpoint: r.endpoint as string,
    state: r.state as ChunkState, file: r.file as string, fileHash: r.file_hash as string, lines: r.lines as number,
    bytes: r.bytes as number, fileId: r.file_id as string | null, batchId: r.batch_id as string | null,
    status: r.status as string | null, completed: r.completed as number, failed: r.failed as number,
    stored: r.stored as number, inputTokens: r.input_tokens as number, outputTokens: r.output_tokens as number,
    cost: r.cost as number | null, updated: r.updated as string,
  };
}

export class BatchChunks {
  /** The chunks' kind column as SQL, found once: a store's schema does not change while it is open. */
  private kindSql: string | undefined;

  private constructor(private readonly db: Database.Database, private readonly trials: TrialStore) {}

  /** The batch tables of a store opened for writing (created by a migration when absent). */
  static open(store: TrialStore): BatchChunks {
    migrate(store.database);
    return new BatchChunks(store.database, store);
  }

  /** The batch tables of a store opened read-only, or undefined when it has none. */
  static readOnly(store: TrialStore): BatchChunks | undefined {
    const has = store.database.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'batch_chunks'").pluck().get();
    return has === 1 ? new BatchChunks(store.database, store) : undefined;
  }

  /** The random tag naming this store in the metadata of its batches. */
  tag(): string {
    return this.db.prepare('SELECT tag FROM batch_store WHERE id = 1').pluck().get() as string;
  }

  /** Commit a prepared chunk and its members in one transaction; returns its id. */
  prepare(c: NewChunk): number {
    return this.db.transaction(() => {
      const info = this.db.prepare(`INSERT INTO batch_chunks (run_id, model, kind, endpoint, state, file, file_hash, lines, bytes, updated)
        VALUES (?, ?, ?, ?, 'prepared', ?, ?, ?, ?, ?)`).run(c.runId, c.model, c.kind, c.endpoint, c.file, c.fileHash, c.lines, c.bytes, now());
      const id = Number(info.lastInsertRowid);
      const ins = this.db.prepare('INSERT INTO batch_members (chunk_id, model, game, framing, rep) VALUES (?, ?, ?, ?, ?)');
      for (const k of c.members) ins.run(id, k.model, k.game, k.framing, k.rep);
      return id;
    }).immediate();
  }

  /** The file is uploaded (its id), or for a vendor taking requests inline (null), the create call may follow. */
  uploaded(id: number, fileId: string | null): void {
    this.db.prepare("UPDATE batch_chunks SET state = 'uploaded', file_id = ?, updated = ? WHERE id = ? AND state = 'prepared'").run(fileId, now(), id);
  }

  created(id: number, batchId: string, status: string): void {
    this.db.prepare("UPDATE batch_chunks SET state = 'created', batch_id = ?, status = ?, updated = ? WHERE id = ? AND state = 'uploaded'")
      .run(batchId, status, now(), id);
  }

  /** The status and request counts of the last poll. */
  polled(id: number, status: string, completed: number, failed: number): void {
    this.db.prepare('UPDATE batch_chunks SET status = ?, completed = ?, failed = ?, updated = ? WHERE id = ?').run(status, completed, failed, now(), id);
  }

  /**
   * Store a finished chunk's results and mark it collected, all in one transaction: after a
   * kill -9 either every result of the chunk is stored and the chunk is collected, or neither.
   * Returns how many trials were stored (a trial already complete is not stored again). `write`
   * stores one record and says whether it did: a decision's trial (the default), a probe's row.
   */
  collect(id: number, c: Collected, write: (r: TrialRecord) => boolean = (r) => this.trials.write(r)): number {
    return this.db.transaction(() => {
      let stored = 0;
      for (const r of c.records) if (write(r)) stored++;
      this.db.prepare(`UPDATE batch_chunks SET state = 'collected', status = ?, stored = ?, input_tokens = ?, output_tokens = ?,
        cost = ?, updated = ? WHERE id = ? AND state = 'created'`).run(c.status, stored, c.inputTokens, c.outputTokens, c.cost, now(), id);
      return stored;
    }).immediate();
  }

  chunks(runId?: number): ChunkRow[] {
    const where = runId === undefined ? '' : 'WHERE run_id = ?';
    return (this.db.prepare(`SELECT * FROM batch_chunks ${where} ORDER BY id`).all(...(runId === undefined ? [] : [runId])) as Record<string,
      unknown>[]).map(toChunk);
  }

  chunk(id: number): ChunkRow {
    return toChunk(this.db.prepare('SELECT * FROM batch_chunks WHERE id = ?').get(id) as Record<string, unknown>);
  }

  /** Chunks of a run not yet collected, in id order. */
  open(runId: number): ChunkRow[] {
    return this.chunks(runId).filter((c) => c.state !== 'collected');
  }

  members(id: number): TrialKey[] {
    return this.db.prepare('SELECT model, game, framing, rep FROM batch_members WHERE chunk_id = ? ORDER BY rowid').all(id) as TrialKey[];
  }

  /** Batch keys (keys.ts: model|game|framing|rep, a probe's after "probe|") of the trials in a run's chunks that are not collected. */
  inOpenChunks(runId: number): Set<string> {
    const rows = this.db.prepare(`SELECT ${this.kindColumn()} AS kind, m.model, m.game, m.framing, m.rep FROM batch_members m
      JOIN batch_chunks c ON c.id = m.chunk_id WHERE c.run_id = ? AND c.state != 'collected'`).all(runId) as
      (TrialKey & { kind: BatchKind })[];
    return new Set(rows.map((r) => memberKey(r.kind, r)));
  }

  /** The chunks' kind column, or every chunk a decision's in a store read before migration 6. */
  private kindColumn(): string {
    this.kindSql ??= this.db.prepare("SELECT count(*) FROM pragma_table_info('batch_chunks') WHERE name = 'kind'").pluck().get() === 1
      ? 'c.kind' : "'decision'";
    return this.kindSql;
  }
}
