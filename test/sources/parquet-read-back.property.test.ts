import { cpSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportTrials } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { refusalKit } from '../helpers/refusals.js';
import { counts, writeStore, type CellSpec } from '../helpers/store.js';

/**
 * Arbitrary damage to a Parquet export — a column dropped or of another type, a file that is no export's, a file outside the
 * model=…/game=…/framing=… folders, a row with a status, an action, a run or a factor level no reader takes — is refused by
 * `reproduce --trials DIR` with exit 2 and one line naming the file, and the row (from 1, in file order) and field where a
 * row is at fault; nothing is written.
 */
const dir = mkdtempSync(join(tmpdir(), 'samegame-parquet-bad-'));
const good = join(dir, 'good');
const cells: CellSpec[] = ['A', 'B'].flatMap((model) => ['prisoners-dilemma', 'stag-hunt'].flatMap((game) => ['business', 'friend-sharing'].map(
  (framing, i): CellSpec => ({ model, game, framing, actions: [...counts(3 + i, 6), null], factors: { persona: 'plain' } }))));

beforeAll(async () => {
  const store = join(dir, 's.sqlite');
  writeStore(store, { name: 's', models: ['A', 'B'] }, cells);
  await exportTrials({ store, format: 'parquet', out: good });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files = (d: string) => (readdirSync(d, { recursive: true }) as string[]).filter((f) => f.endsWith('.parquet')).sort().map((f) => join(d, f));
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Rewrite one file of the copy with the rows `select` makes of it (`FROM t`, rows in file order, `file_row_number` from 0). */
async function rewrite(file: string, select: string): Promise<void> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    await c.run(`CREATE VIEW t AS SELECT * FROM read_parquet(${lit(file)}, file_row_number = true, hive_partitioning = false)`);
    await c.run(`COPY (${select} ORDER BY file_row_number) TO ${lit(`${file}.new`)} (FORMAT parquet)`);
  } finally {
    c.closeSync();
    db.closeSync();
  }
  renameSync(`${file}.new`, file);
}

interface Damage { readonly what: string; readonly select: (row: number, text: string) => string; readonly field?: string; readonly atRow: boolean }
const keep = 'EXCLUDE (file_row_number)';
const at = (row: number, column: string, value: string) => `SELECT * ${keep} REPLACE (CASE WHEN file_row_number = ${row} THEN ${value} ELSE ${column} END ` +
  `AS ${column}) FROM t`;
const DAMAGES: Damage[] = [
  { what: 'a column dropped', select: () => `SELECT * EXCLUDE (file_row_number, status) FROM t`, field: 'status', atRow: false },
  { what: 'rep as text', select: () => `SELECT * ${keep} REPLACE (CAST(rep AS VARCHAR) AS rep) FROM t`, field: 'rep', atRow: false },
  { what: 'synthetic as a number', select: () => `SELECT * ${keep} REPLACE (CAST(synthetic AS INTEGER) AS synthetic) FROM t`, field: 'synthetic',
    atRow: false },
  { what: 'no export', select: (_r, s) => `SELECT ${lit(s)} AS ${JSON.stringify(`x${s.replace(/"/g, '')}`)}, 1 AS y FROM t`, field: 'run', atRow: false },
  { what: 'a status', select: (r, s) => at(r, 'status', lit(`${s}?`)), field: 'status', atRow: true },
  { what: 'an action', select: (r, s) => at(r, 'action', lit(`${s}x`)), field: 'action', atRow: true },
  { what: 'a second run', select: (r) => at(r, 'run', 'run + 1'), field: 'run', atRow: true },
  { what: 'a factor level', select: (r, s) => at(r, 'persona', lit(`${s}\u0007`)), field: 'persona', atRow: true },
];

describe('a damaged Parquet export', () => {
  it('is refused in one line naming file (and row and field), exit 2', async () => {
    let n = 0;
    await fc.assert(fc.asyncProperty(fc.constantFrom(...DAMAGES), fc.nat(), fc.nat({ max: 5 }), fc.string({ maxLength: 6 }), async (d, fileIndex, row, text) => {
      const copy = join(dir, `c${n++}`);
      cpSync(good, copy, { recursive: true });
      const all = files(copy);
      const file = all[fileIndex % all.length];
      // rows 0–5 of a cell's file are its decisions (an action damaged there is an ok trial's), row 6 its invalid trial
      await rewrite(file, d.select(row, text));
      const out = join(copy, 'out');
      const r = await runCli(['reproduce', '--trials', copy, '--out', out, '--reps', '50']);
      expect(r.code, r.stderr).toBe(2);
      const line = refusalKit.oneLine(r.stderr);
      expect(line).toContain(file);
      if (d.field) expect(line).toContain(`field "${d.field}"`);
      // a second run on the first row of the first file: every other row is then the second run, the first of them row 2
      if (d.atRow) expect(line).toContain(`: row ${d.what === 'a second run' && file === all[0] && row === 0 ? 2 : row + 1}:`);
      expect(readdirSync(copy)).not.toContain('out');
      rmSync(copy, { recursive: true, force: true });
    }), { numRuns: 24 });
  }, 600_000);

  it('a file outside the model=…/game=…/framing=… folders is refused naming it', async () => {
    const copy = join(dir, 'flat');
    cpSync(good, copy, { recursive: true });
    const [first] = files(copy);
    renameSync(first, join(copy, 'loose.parquet'));
    const r = await runCli(['reproduce', '--trials', copy, '--out', join(copy, 'out')]);
    expect(r.code).toBe(2);
    expect(refusalKit.oneLine(r.stderr)).toContain(`${join(copy, 'loose.parquet')}: not a file of a samegame Parquet export`);
  }, 120_000);
});
