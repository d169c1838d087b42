/**
 * Display names in the two-framing files: table2.csv, table3.csv and family-robustness.csv add a
 * `<column>_name` column (model, game) after their columns when a name applies, with the ids and
 * numbers as without names; Pooled and All keep their words; metrics.json adds the `names` map.
 * Without names, or with names of no level present, every file is byte-identical.
 */
import { describe, expect, it } from 'vitest';
import { displayNames } from '../../../src/core/display-names.js';
import type { CellTable } from '../../../src/core/cells.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/analysis.js';
import { familyCsv, table2Csv, table3Csv } from '../../../src/analyses/two-framing/tables.js';
import { twoFramingTableFiles } from '../../../src/analyses/two-framing/files.js';

const counts: Record<string, [number, number, number]> = { M1: [3, 7, 5], M2: [6, 2, 4] }; // x of 10 under a, b, c
const table: CellTable = {
  factors: ['model', 'game', 'framing'],
  cells: Object.entries(counts).flatMap(([model, xs]) => ['a', 'b', 'c'].map((framing, i) => ({ key: { model, game: 'G', framing }, obs: { kind: 'binary' as const, n: 10, x: xs[i] } }))),
};
const a = analyzeTwoFraming(table, { seed: 1, reps: 50, attenuation: 1, base: 'a', alt: 'b' });
const lines = (csv: string) => csv.trim().split('\n');
/** The CSV without its last k columns (no quoted field). */
const dropLast = (csv: string, k: number) => lines(csv).map((l) => l.split(',').slice(0, -k).join(','));

describe('two-framing CSVs with display names', () => {
  const names = displayNames([['M1', 'Model one'], ['G', 'Game, the first']]);

  it('add model_name and game_name after the columns, ids and numbers unchanged, Pooled and All kept', () => {
    const t2 = table2Csv(a, names);
    expect(lines(t2)[0]).toBe(`${lines(table2Csv(a))[0]},model_name,game_name`);
    expect(lines(t2).slice(1)).toEqual(lines(table2Csv(a)).slice(1).map((l) => `${l},${l.startsWith('M1,') ? 'Model one' : 'M2'},"Game, the first"`));
    const t3 = lines(table3Csv(a, names));
    expect(t3[0]).toBe(`${lines(table3Csv(a))[0]},model_name`); // Table 3 has no game column
    expect(t3.slice(1).map((l) => l.split(',').at(-1))).toEqual(['Model one', 'M2', 'Pooled']);
    expect(dropLast(table3Csv(a, names), 1)).toEqual(lines(table3Csv(a)));
    const fam = lines(familyCsv(a, names)), famPlain = lines(familyCsv(a));
    expect(fam[0]).toBe(`${famPlain[0]},model_name,game_name`);
    const suffixes = ['Model one,"Game, the first"', 'M2,"Game, the first"', 'Model one,All', 'M2,All', 'Pooled,All'];
    expect(famPlain.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual(['M1,G', 'M2,G', 'M1,All', 'M2,All', 'Pooled,All']);
    expect(fam.slice(1)).toEqual(famPlain.slice(1).map((l, i) => `${l},${suffixes[i]}`));
  });

  it('only the columns with a named level: a name for the game alone adds game_name only', () => {
    const only = displayNames([['G', 'Gee']]);
    expect(lines(table2Csv(a, only))[0].endsWith(',difference,game_name')).toBe(true);
    expect(table3Csv(a, only)).toBe(table3Csv(a));
  });

  it('without names, with an empty map, or with names of no level present: byte-identical', () => {
    for (const n of [undefined, displayNames(), displayNames([['other', 'Other']])]) {
      expect(table2Csv(a, n)).toBe(table2Csv(a));
      expect(table3Csv(a, n)).toBe(table3Csv(a));
      expect(familyCsv(a, n)).toBe(familyCsv(a));
    }
    const plain = twoFramingTableFiles('/r', a, { path: 'x', sha256: 'y', kind: 'rates' });
    expect(twoFramingTableFiles('/r', a, { path: 'x', sha256: 'y', kind: 'rates' }, {}, displayNames())).toEqual(plain);
  });

  it('metrics.json adds the names map (the rest unchanged)', () => {
    const files = (n?: typeof names) => twoFramingTableFiles('/r', a, { path: 'x', sha256: 'y', kind: 'rates' }, {}, n);
    const metrics = (n?: typeof names) => JSON.parse(files(n).find((f) => f.path.endsWith('metrics.json'))!.content as string);
    const { names: got, ...rest } = metrics(names);
    expect(got).toEqual({ M1: 'Model one', G: 'Game, the first' });
    expect(rest).toEqual(metrics());
  });
});
