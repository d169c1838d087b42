import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze, exportTrials, init, run } from '../../src/index.js';
import { MemoryLogger } from '../../src/core/logger.js';
import { withExportCsv } from '../../src/sources/parquet/export-read.js';

/**
 * A repeated store holding invalid answers (the simulated model answers no single action one time in five) and failed calls
 * (two last-round decisions marked `error` after the run, as a provider failure that stops a match leaves them), exported as CSV and as Parquet, then read
 * back through the shipped description (`analyze --trials FILE|DIR --format data/log-formats/samegame-export.yaml`): the
 * tables are byte-identical to the store's — an invalid answer is a decision without a move, a failed call is none, as the
 * store counts them — and labelled synthetic, the design's names restored by the sidecar.
 */
const dir = mkdtempSync(join(tmpdir(), 'samegame-parquet-repeated-'));
const read = (...p: string[]) => readFileSync(join(dir, ...p), 'utf8');
const FORMAT = join(__dirname, '..', '..', 'data', 'log-formats', 'samegame-export.yaml');
const TABLES = ['table3.csv', 'table2.csv', 'cells.csv', 'rounds.csv', 'reactions.csv', 'endgame.csv', 'models.csv'];
let invalid = 0;

beforeAll(async () => {
  const logger = new MemoryLogger();
  init({ name: 'rp', kind: 'repeated', dir, logger });
  const design = join(dir, 'rp.yaml');
  // levels out of text order (Zed before Sim, the stag hunt first): the read-back keeps the design's order, which its sidecar records
  writeFileSync(design, read('rp.yaml').replace(/^synthetic: true$/m, 'synthetic: true\nnames: { Sim: Simulated One }')
    .replace('options: { lambda: 4,', 'options: { invalid_rate: 0.2, lambda: 4,')
    .replace('models:\n', 'models:\n  - { id: Zed, provider: simulated, options: { invalid_rate: 0.1, lambda: 2 } }\n')
    .replace('games: [prisoners-dilemma, stag-hunt]', 'games: [stag-hunt, prisoners-dilemma]'));
  const store = join(dir, 'rp.sqlite');
  await run({ design, store, logger });
  const db = new Database(store);
  invalid = db.prepare("SELECT count(*) FROM trials WHERE status = 'invalid'").pluck().get() as number;
  db.prepare("UPDATE trials SET status = 'error', action = NULL, error = 'HTTP 500' WHERE rowid IN (SELECT rowid FROM trials WHERE status = 'ok' " +
    'AND round = 3 AND seat = 1 ORDER BY rowid LIMIT 2)').run();
  db.close();
  const settings = { reps: 200, seed: 3, figures: false, logger } as const;
  await analyze({ store, out: join(dir, 'a'), ...settings });
  await exportTrials({ store, format: 'csv', out: join(dir, 'rp.csv') });
  await exportTrials({ store, format: 'parquet', out: join(dir, 'pq') });
  await analyze({ trials: join(dir, 'rp.csv'), format: FORMAT, out: join(dir, 'c'), ...settings });
  await analyze({ trials: join(dir, 'pq'), format: FORMAT, out: join(dir, 'p'), ...settings });
}, 240_000);

describe('a repeated store with invalid answers and failed calls, exported and read back', () => {
  it('holds invalid answers', () => expect(invalid).toBeGreaterThan(5));

  it.each(TABLES)('%s: byte-identical from the store, its CSV export and its Parquet export', (f) => {
    const a = read('a', 'reports', f);
    expect(a.split('\n').length).toBeGreaterThan(2);
    expect(read('c', 'reports', f)).toBe(a);
    expect(read('p', 'reports', f)).toBe(a);
  });

  it('the Parquet export read back lists the trials as its CSV export does: in the design\'s order (the order the log reader reads)', () => {
    // run, design, model, game, framing, rep, match, round, seat: the trial's place (a payoff is written 2.0 where the CSV says 2)
    const places = (csv: string) => csv.trimEnd().split('\n').map((l) => l.split(',').slice(0, 9).join(','));
    const csv = places(read('rp.csv'));
    expect(csv[0]).toBe('run,design,model,game,framing,rep,match,round,seat');
    expect(csv[1]).toMatch(/^1,rp,Zed,stag-hunt,/);
    expect(places(withExportCsv(join(dir, 'pq'), 'pq', (e) => readFileSync(e.csv, 'utf8')))).toEqual(csv);
  });

  it('the read-back is labelled synthetic, with the design\'s names', () => {
    for (const out of ['c', 'p']) {
      const t3 = read(out, 'reports', 'table3.csv').trimEnd().split('\n');
      expect(t3.slice(1).every((r) => r.endsWith(',true'))).toBe(true);
      expect(read(out, 'reports', 'cells.csv')).toContain('Simulated One');
    }
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));
