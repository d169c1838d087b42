/**
 * The prompt registry (store version 4): every distinct prompt, request body and raw response a run
 * stored, once, keyed by its SHA-256 (of the UTF-8 text). A trial names its texts by the registry's
 * row id (an integer of one to three bytes, where a hash would take 32 per text and per trial); its own
 * prompt and request columns are then empty, its response column NULL. One changed sentence in a framing
 * is another text: another hash, another row. Rows written before the registry (or by a store never
 * migrated) keep their texts inline; the readers take whichever the row has. The same version adds
 * the time each trial was stored (`stored_at`, milliseconds since 1970 UTC: 6 bytes, where ISO 8601 text
 * takes 24; NULL for the rows stored before), which a
 * sealed plan's time must precede (seal.ts).
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { BASE_COLUMNS, COLUMNS } from './rows.js';

/** The SHA-256 of a text's UTF-8 bytes, as lower-case hex. */
export function textSha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The trials' columns that reference the registry, and the inline column each replaces. */
export const REGISTRY_REFS = [['prompt_id', 'prompt'], ['request_id', 'request'], ['response_id', 'response']] as const;

/** Migration 4: the registry table, the reference columns, and every stored text moved into it (one transaction, migrate()). */
export function addPromptRegistry(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS prompts (id INTEGER PRIMARY KEY, sha256 BLOB NOT NULL UNIQUE, text TEXT NOT NULL);
${REGISTRY_REFS.map(([ref]) => `ALTER TABLE trials ADD COLUMN ${ref} INTEGER REFERENCES prompts(id);`).join('\n')}
ALTER TABLE trials ADD COLUMN stored_at INTEGER;`);
  db.function('samegame_sha256', { deterministic: true }, (t: unknown) => createHash('sha256').update(String(t), 'utf8').digest());
  for (const [, col] of REGISTRY_REFS) {
    db.exec(`INSERT OR IGNORE INTO prompts (sha256, text) SELECT samegame_sha256(${col}), ${col} FROM trials WHERE ${col} IS NOT NULL GROUP BY ${col}`);
  }
  // trial_records: every trial with its texts, for whoever reads the store with SQL (sqlite3, DuckDB): the columns of trials,
  // the texts taken from the registry.
  const sel = trialSelect(db, true);
  db.exec(`CREATE VIEW IF NOT EXISTS trial_records AS SELECT ${sel.cols}, t.stored_at FROM ${sel.from}`);
  const id = (col: string) => `(SELECT p.id FROM prompts p WHERE p.sha256 = samegame_sha256(trials.${col}))`;
  // SET expressions read the row as it was: every reference is computed from the inline text it replaces.
  db.exec(`UPDATE trials SET prompt_id = ${id('prompt')}, request_id = ${id('request')},
    response_id = CASE WHEN response IS NULL THEN NULL ELSE ${id('response')} END, prompt = '', request = '', response = NULL`);
}

/** True when the store's trials reference the registry (version 4 and later). */
export function hasRegistry(db: Database.Database): boolean {
  return (db.prepare("SELECT count(*) FROM pragma_table_info('trials') WHERE name = 'prompt_id'").pluck().get() as number) === 1;
}

/**
 * The select list and joins that give a trial row with its texts, whether inline or in the registry
 * (`t` is trials). Without the registry, the plain row.
 */
export function trialSelect(db: Database.Database, playColumns: boolean): { readonly cols: string; readonly from: string } {
  const base = playColumns ? COLUMNS : COLUMNS.slice(0, BASE_COLUMNS);
  if (!hasRegistry(db)) return { cols: base.map((c) => `t.${c}`).join(', '), from: 'trials t' };
  const refs = new Map<string, string>(REGISTRY_REFS.map(([ref, col]) => [col, ref]));
  const cols = base.map((c) => {
    const ref = refs.get(c);
    return ref === undefined ? `t.${c}` : `CASE WHEN t.${ref} IS NULL THEN t.${c} ELSE r_${c}.text END AS ${c}`;
  });
  const joins = REGISTRY_REFS.map(([ref, col]) => `LEFT JOIN prompts r_${col} ON r_${col}.id = t.${ref}`).join(' ');
  return { cols: cols.join(', '), from: `trials t ${joins}` };
}

/** Registers texts: the id of each text's row, inserted when new (the caller's transaction). */
export class TextRegistry {
  private readonly insert: Database.Statement;
  private readonly find: Database.Statement;
  /** Ids of recent prompts and requests (they repeat per cell); responses are looked up. */
  private readonly recent = new Map<string, number>();

  constructor(db: Database.Database) {
    this.insert = db.prepare('INSERT INTO prompts (sha256, text) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING');
    this.find = db.prepare('SELECT id FROM prompts WHERE sha256 = ?').pluck();
  }

  /** After a rolled-back transaction: the remembered ids may name rows that are gone. */
  forget(): void {
    this.recent.clear();
  }

  id(text: string, remember: boolean): number {
    const hit = remember ? this.recent.get(text) : undefined;
    if (hit !== undefined) return hit;
    const sha = createHash('sha256').update(text, 'utf8').digest();
    this.insert.run(sha, text);
    const id = this.find.get(sha) as number;
    if (remember) {
      if (this.recent.size >= 256) this.recent.clear();
      this.recent.set(text, id);
    }
    return id;
  }
}
