/**
 * A store whose run carries a factor beyond model, game and framing: `analyze` folds each level
 * into the game ("G [cond=x]") exactly as `reproduce --trials` of the store's export does, so the
 * two Table 2s are one, and each level's counts are the trials of that level.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTrials } from '../../src/commands/export.js';
import { TrialStore } from '../../src/live/store/store.js';
import { counts, writeStore, type CellSpec } from '../helpers/store.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-store-factors-'));

// Counts chosen by hand, different per level so a table that pools or drops a level cannot match.
// Level y holds the lower reps, so the export's trial order (by rep) and the store's cell order differ.
const CELLS: CellSpec[] = [
  { model: 'A', game: 'G', framing: 'business', factors: { cond: 'x' }, firstRep: 100, actions: counts(2, 10) },
  { model: 'A', game: 'G', framing: 'friend-sharing', factors: { cond: 'x' }, firstRep: 100, actions: counts(7, 10) },
  { model: 'A', game: 'G', framing: 'business', factors: { cond: 'y' }, actions: [...counts(5, 8), null] },
  { model: 'A', game: 'G', framing: 'friend-sharing', factors: { cond: 'y' }, actions: counts(1, 9) },
];

/** x (the C's) and n (the valid trials) of a cell, counted from its spec. */
function direct(cond: string, framing: string): { x: number; n: number } {
  const a = CELLS.find((c) => c.factors!.cond === cond && c.framing === framing)!.actions!;
  return { x: a.filter((v) => v === 'C').length, n: a.filter((v) => v !== null).length };
}

/** The CSV's rows as records by header. */
function rows(csv: string): Record<string, string>[] {
  const [head, ...lines] = csv.trim().split('\n');
  const cols = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
}

describe('analyze of a store with an extra factor', () => {
  it('gives the Table 2 reproduce --trials gives of its export, one row per level with that level\'s counts', async () => {
    const store = join(dir, 'f.sqlite');
    writeStore(store, { name: 'factored' }, CELLS);
    const a = join(dir, 'a');
    const ra = await runCli(['analyze', store, '--out', a, '--reps', '200', '-q']);
    expect(ra.code, ra.stderr).toBe(0);
    const got = readFileSync(join(a, 'reports', 'table2.csv'), 'utf8');

    const s = TrialStore.openExisting(store);
    let text = '';
    try { await writeTrials(s, 'csv', async (c) => { text += c; }); } finally { s.close(); }
    const file = join(dir, 'export.csv');
    writeFileSync(file, text);
    const r = join(dir, 'r');
    const rr = await runCli(['reproduce', '--trials', file, '--out', r, '--reps', '200', '-q']);
    expect(rr.code, rr.stderr).toBe(0);
    expect(got).toBe(readFileSync(join(r, 'reports', 'table2.csv'), 'utf8'));

    const t2 = rows(got);
    expect(t2.map((x) => x.game)).toEqual(['G [cond=x]', 'G [cond=y]']);
    for (const [i, cond] of ['x', 'y'].entries()) {
      const b = direct(cond, 'business'), f = direct(cond, 'friend-sharing');
      expect([Number(t2[i].base_count), Number(t2[i].alt_count)]).toEqual([b.x, f.x]);
      expect(Number(t2[i].base_rate)).toBeCloseTo(b.x / b.n, 12);
      expect(Number(t2[i].alt_rate)).toBeCloseTo(f.x / f.n, 12);
    }
  }, 60_000);
});

describe('a store whose cells fold into one game', () => {
  it('is refused with one line naming both cells, as the per-trial reader refuses it', async () => {
    const store = join(dir, 'collide.sqlite');
    const both = (factors: Record<string, string>, firstRep: number): CellSpec[] => ['business', 'friend-sharing'].map((framing) =>
      ({ model: 'A', game: 'G', framing, factors, firstRep, actions: counts(2, 4) }));
    // "G [a=1; b=2; b=3]" twice: a = "1; b=2", b = "3" and a = "1", b = "2; b=3".
    writeStore(store, { name: 'collide' }, [...both({ a: '1; b=2', b: '3' }, 0), ...both({ a: '1', b: '2; b=3' }, 10)]);
    const r = await runCli(['analyze', store, '--out', join(dir, 'c'), '--reps', '50', '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${store}: cell ["A","G","business"] with a = "1; b=2", b = "3" and cell ["A","G","business"] with a = "1", b = "2; b=3" would both be the game "G [a=1; b=2; b=3]": rename a level`);
  });
});
