/**
 * A store is held to the naming rule of every reader (docs/reference/specifications.md, "Names"): a model named `Pooled`
 * or a game named `All` (the tables' own rows), a line or paragraph separator, a name over the
 * length limit — refused by analyze, coverage, plan and export alike, one line, exit 2, nothing written.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { counts, writeStore } from '../helpers/store.js';
import { runCli } from '../helpers/cli.js';
import { MAX_NAME_LENGTH } from '../../src/sources/reader-rules.js';
import Database from 'better-sqlite3';
import { runInProcess as run } from '../helpers/in-process.js';
import { refusalKit } from '../helpers/refusals.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-store-names-'));
let seq = 0;

function storeWith(model: string, game: string): string {
  const path = join(dir, `s${seq++}.sqlite`);
  writeStore(path, { name: 'x' }, [
    { model, game, framing: 'business', actions: counts(3, 10) },
    { model, game, framing: 'friend-sharing', actions: counts(6, 10) },
  ]);
  return path;
}

const readers = (store: string, out: string): [string, string[]][] => [
  ['analyze', ['analyze', store, '--out', out, '--reps', '100', '-q']],
  ['coverage', ['coverage', store, '--out', out, '--sims', '2', '--reps', '50', '-q']],
  ['plan', ['plan', store, '--target-halfwidth', '0.1', '--reps', '100']],
  ['export', ['export', store, '--format', 'csv', '--out', `${out}.csv`]],
];

describe('every store reader refuses the names no reader takes', () => {
  it.each([
    ['model "Pooled"', 'Pooled', 'G', 'model "Pooled" is reserved for the tables\' own pooled rows; rename it'],
    ['game "All"', 'A', 'All', 'game "All" is reserved for the tables\' own per-model rows; rename it'],
    ['a line separator', 'A\u2028B', 'G', 'model contains the control character U+2028'],
    ['a paragraph separator in a game', 'A', 'G\u2029H', 'game contains the control character U+2029'],
    ['a name over the limit', 'M'.repeat(MAX_NAME_LENGTH + 1), 'G', `model is ${MAX_NAME_LENGTH + 1} characters long (names may be at most ${MAX_NAME_LENGTH})`],
  ])('%s', async (_n, model, game, want) => {
    const store = storeWith(model, game);
    for (const [name, args] of readers(store, join(dir, `out${seq++}`))) {
      const r = await runCli(args);
      expect(r.code, `${name}: ${r.stderr}`).toBe(2);
      expect(r.stderr, name).toContain(want);
      expect(r.stderr.trim().split('\n'), name).toHaveLength(1);
      expect(r.stdout, name).toBe('');
      expect(existsSync(args[args.indexOf('--out') + 1] ?? '/nonexistent'), name).toBe(false);
    }
  }, 60_000);
});

/** Stores that samegame did not write, or that are damaged: one line naming the store, nothing added to it. */
describe('stores that samegame did not write', () => {
  const { tmp, oneLine } = refusalKit;

  describe('stores', () => {
    const make = (damage?: string) => {
      const d = tmp();
      const path = join(d, 's.sqlite');
      writeStore(path, { name: 't' }, [
        { model: 'M', game: 'stag-hunt', framing: 'business', probs: [0.2, 0.4, 0.6] },
        { model: 'M', game: 'stag-hunt', framing: 'friend-sharing', probs: [0.1, 0.3, 0.5] },
      ]);
      if (damage) { const db = new Database(path); db.exec(damage); db.close(); }
      return { d, path };
    };
    it.each([
      ['bad JSON in factors', "UPDATE trials SET factors = '{oops' WHERE rep = 0"],
      ['p_cooperate = 7.5', 'UPDATE trials SET p_cooperate = 7.5 WHERE rep = 1'],
      ['a table lacking a column', 'DROP INDEX trials_cells; ALTER TABLE trials DROP COLUMN factors'],
    ])('%s: analyze and export end with one line naming the store', async (_k, damage) => {
      const { d, path } = make(damage);
      for (const argv of [['analyze', path, '--out', join(d, 'o'), '--reps', '50'], ['export', path, '--format', 'jsonl', '--out', join(d, 't.jsonl')]]) {
        const r = await run(argv);
        if (argv[0] === 'export' && damage.includes('7.5')) { expect(r.code).toBe(0); continue; } // export shows what is stored
        expect(r.code, `${argv[0]}: ${r.stderr}`).toBe(2);
        expect(oneLine(r.stderr)).toMatch(new RegExp(`^samegame: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (the trial store is damaged|cannot open the trial store)`));
        expect(existsSync(join(d, 'o'))).toBe(false);
      }
    });

    it('run --store on an unrelated SQLite file refuses and adds nothing to it', async () => {
      const d = tmp();
      const path = join(d, 'other.sqlite');
      const db = new Database(path);
      db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
      db.close();
      const design = join(d, 'sim.yaml');
      writeFileSync(design, 'name: sim\nmodels:\n  - { id: S, provider: simulated }\ngames: [stag-hunt]\nframings: [business, friend-sharing]\ntrials: 1\n');
      const r = await run(['run', design, '--store', path]);
      expect(r.code).toBe(2);
      expect(oneLine(r.stderr)).toBe(`samegame: ${path}: not a samegame trial store (no runs table)`);
      const after = new Database(path, { readonly: true });
      expect(after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()).toEqual(['invoices']);
      after.close();
    });
  });
});
