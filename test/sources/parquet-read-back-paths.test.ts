import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze, exportTrials, init, run } from '../../src/index.js';
import { MemoryLogger } from '../../src/core/logger.js';
import type { RepeatedResult } from '../../src/commands/pipeline/repeated.js';
import { runCli } from '../helpers/cli.js';
import { UserError } from '../../src/core/errors.js';
import { querySync } from '../../src/sources/parquet/sync-query.js';

/**
 * A repeated export read back as a user names it: a glob of its files, a folder whose path holds [, * and ?, a format of the
 * user's (without opponent_action, so that the query engine would compile it), the default output folder. Each case is one the
 * read-back got wrong: the sidecar of a glob ignored (unlabelled, names lost), such a path globbed by the engine, the engine
 * given the export's folder as a file pattern, the reports written into the export.
 */
const top = mkdtempSync(join(tmpdir(), 'samegame-parquet-paths-'));
const dir = join(top, 'plain');
// every character a glob reads, in the folders above an export
const weird = join(top, 'we[ir]d*?');
const FORMAT = join(__dirname, '..', '..', 'data', 'log-formats', 'samegame-export.yaml');
const settings = { reps: 100, seed: 5, figures: false } as const;
const read = (...p: string[]) => readFileSync(join(dir, ...p), 'utf8');
const labelled = (out: string) => {
  const t3 = read(out, 'reports', 'table3.csv').trimEnd().split('\n');
  return t3.length > 1 && t3.slice(1).every((r) => r.endsWith(',true')) && read(out, 'reports', 'cells.csv').includes('Simulated One');
};

beforeAll(async () => {
  mkdirSync(dir);
  const logger = new MemoryLogger();
  init({ name: 'rp', kind: 'repeated', dir, logger });
  const design = join(dir, 'rp.yaml');
  writeFileSync(design, read('rp.yaml').replace(/^synthetic: true$/m, 'synthetic: true\nnames: { Sim: Simulated One }').replace('trials: 10', 'trials: 4')
    .replace('options: { lambda: 4,', 'options: { invalid_rate: 0.2, lambda: 4,'));
  const store = join(dir, 'rp.sqlite');
  await run({ design, store, logger });
  await analyze({ store, out: join(dir, 'a'), ...settings, logger });
  await exportTrials({ store, format: 'parquet', out: join(dir, 'pq') });
  // a format of the user's: the shipped one without the opponent's action (the query engine compiles such a format)
  const mine = readFileSync(FORMAT, 'utf8').replace(/^\s+opponent_action: opponent_action\n/m, '').replace('name: samegame-export', 'name: mine');
  expect(mine).not.toContain('opponent_action: opponent_action');
  writeFileSync(join(dir, 'mine.yaml'), mine);
  // and one that knows no empty action (an invalid answer is then a value missing)
  const strict = readFileSync(FORMAT, 'utf8').replaceAll(", '': invalid }", ' }').replace('name: samegame-export', 'name: strict');
  expect(strict).not.toContain("'': invalid");
  writeFileSync(join(dir, 'strict.yaml'), strict);
}, 120_000);

describe('a repeated Parquet export read back by analyze --trials', () => {
  it('a glob of its files: the sidecar of the export restores the synthetic label and the names', async () => {
    await analyze({ trials: join(dir, 'pq', '*', '*', '*', '*.parquet'), format: FORMAT, out: join(dir, 'g'), ...settings });
    expect(labelled('g')).toBe(true);
    expect(read('g', 'reports', 'cells.csv')).toBe(read('a', 'reports', 'cells.csv'));
  });

  it('a part of the export (one game): the sidecar, written for all its files, left out with a note that says so; synthetic by its column', async () => {
    const file = join(dir, 'pq', 'model=Sim', 'game=stag-hunt', '*', '*.parquet');
    const res = await analyze({ trials: file, format: FORMAT, out: join(dir, 'one'), ...settings });
    expect((res as RepeatedResult).input.notes).toContain(`${join(dir, 'pq.provenance.json')} was written for the export's files as exported, ` +
      `not for ${file} (a part of the export, or files changed since): left out (no names or design order read from it; the trials' synthetic ` +
      'column still says whether they are synthetic)');
    const t3 = read('one', 'reports', 'table3.csv').trimEnd().split('\n');
    expect(t3.length).toBeGreaterThan(1);
    expect(t3.slice(1).every((r) => r.endsWith(',true'))).toBe(true);
  });

  it('below a folder whose path holds [, * and ?: the folder, and a glob of its files, read with their sidecar', async () => {
    mkdirSync(weird);
    cpSync(join(dir, 'pq'), join(weird, 'pq'), { recursive: true });
    cpSync(join(dir, 'pq.provenance.json'), join(weird, 'pq.provenance.json'));
    await analyze({ trials: join(weird, 'pq'), format: FORMAT, out: join(dir, 'f'), ...settings });
    expect(labelled('f')).toBe(true);
    expect(read('f', 'reports', 'table3.csv')).toBe(read('a', 'reports', 'table3.csv'));
    await analyze({ trials: join(weird, 'pq', 'model=*', '*', '*', '*.parquet'), format: FORMAT, out: join(dir, 'fg'), ...settings });
    expect(read('fg', 'reports', 'table3.csv')).toBe(read('a', 'reports', 'table3.csv'));
  });

  it('a format without opponent_action: read as the CSV export, not given to the query engine as a file pattern', async () => {
    await analyze({ trials: join(dir, 'pq'), format: join(dir, 'mine.yaml'), out: join(dir, 'm'), ...settings });
    expect(read('m', 'reports', 'table3.csv')).toBe(read('a', 'reports', 'table3.csv'));
  });

  it('a row the format refuses is named by its Parquet file and row (from 1, in file order), not by a line of a temporary CSV', async () => {
    const err = await analyze({ trials: join(dir, 'pq'), format: join(dir, 'strict.yaml'), out: join(dir, 's'), ...settings }).then(() => undefined, (e) => e);
    expect(err).toBeInstanceOf(UserError);
    // an invalid answer's row (no action), or the other seat's row of its round (no opponent_action)
    const m = /^(.+\.parquet): row (\d+): field "(action|opponent_action)": value is missing$/.exec((err as Error).message);
    expect(m).not.toBeNull();
    const [file, row, field] = [m![1], Number(m![2]), m![3]];
    expect(file.startsWith(join(dir, 'pq'))).toBe(true);
    // the row named (read here by its number in the file) holds no value in that field
    const [rows] = querySync('check', [`SELECT file_row_number + 1 AS row, ${field} AS v FROM read_parquet('${file}', file_row_number = true) ` +
      `WHERE file_row_number = ${row - 1}`]);
    expect(rows).toEqual([{ row, v: null }]);
  });

  it('the same files without their sidecar: synthetic by their synthetic column, the names lost, and a note says the sidecar is missing', async () => {
    cpSync(join(dir, 'pq'), join(dir, 'bare'), { recursive: true });
    const logger = new MemoryLogger();
    const res = await analyze({ trials: join(dir, 'bare'), format: FORMAT, out: join(dir, 'b'), ...settings, logger });
    const t3 = read('b', 'reports', 'table3.csv').trimEnd().split('\n');
    expect(t3.length).toBeGreaterThan(1);
    expect(t3.slice(1).every((r) => r.endsWith(',true'))).toBe(true);
    expect(read('b', 'reports', 'cells.csv')).not.toContain('Simulated One');
    expect((res as RepeatedResult).input.notes?.some((n) => n.includes('bare.provenance.json: missing'))).toBe(true);
  });

  it('by default the outputs go beside the export (NAME-analysis), never into it; an --out inside the export is refused', async () => {
    const r = await runCli(['analyze', '--trials', 'pq', '--format', FORMAT, '--reps', '50'], { cwd: dir });
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'pq-analysis', 'reports', 'table3.csv'))).toBe(true);
    expect(readdirSync(join(dir, 'pq')).sort()).toEqual(['model=Sim']);
    for (const out of ['pq', join('pq', 'reports-here')]) {
      const bad = await runCli(['analyze', '--trials', 'pq', '--format', FORMAT, '--reps', '50', '--out', out], { cwd: dir });
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain(`--out ${out}: inside the Parquet export pq`);
    }
    expect(readdirSync(join(dir, 'pq')).sort()).toEqual(['model=Sim']);
  }, 120_000);
});

afterAll(() => rmSync(top, { recursive: true, force: true }));
