/**
 * The comprehension outputs (docs/methods.md §18c): the Table 3 mark compares a contrast's two
 * framings with each other only; marking table3.csv keeps every cell as written (fast-check over
 * tables with commas, quotes, negative numbers and formula-like text) and adds one column; the
 * note goes under table3.tex's table, escaped for LaTeX.
 */
import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { comprehension, NOT_SHOWN, pairVerdicts } from '../../src/analyses/comprehension/index.js';
import type { ScoredProbe } from '../../src/live/probes/comprehension.js';
import { toCsv } from '../../src/render/csv.js';
import { renderSvg } from '../../src/render/render.js';
import { vegaLiteWarnings } from '../helpers/vega-warnings.js';

/** n probes of a model × framing, `correct` of them answered right. */
const probes = (model: string, framing: string, n: number, correct: number): ScoredProbe[] =>
  Array.from({ length: n }, (_, i) => ({ model, game: 'g', framing, outcome: ['CC', 'CD', 'DC', 'DD'][i % 4], score: i < correct ? 'correct' : 'wrong' }));
const order = { models: ['m_1'], games: ['g'], framings: ['a', 'b', 'c'] };

describe('the Table 3 mark of a contrast', () => {
  it('compares its two framings with each other only: a third, more accurate framing marks neither', () => {
    // a and b: 38/40 each (0.95: above 0.9, and equal); c: 400/400.
    const c = comprehension.of([...probes('m_1', 'a', 40, 38), ...probes('m_1', 'b', 40, 38), ...probes('m_1', 'c', 400, 400)], order, 0.9);
    // Over all framings, c (400/400) is more accurate than a and b by more than sampling error: the verdicts file says so.
    expect(c.verdicts.map((v) => [v.framing, v.shown, v.differsFrom])).toEqual([['a', false, ['c']], ['b', false, ['c']], ['c', true, []]]);
    // The contrast a vs b compares a and b only: both shown, the row unmarked.
    expect(pairVerdicts(c, ['a', 'b']).every((v) => v.shown)).toBe(true);
    const marks = comprehension.marks(c, ['m_1'], ['a', 'b'], 'Pooled');
    expect([...marks]).toEqual([['m_1', 'shown'], ['Pooled', 'shown']]);
    expect(comprehension.note(c, marks, ['m_1'], ['a', 'b'])).toBe('');
  });

  it('marks the model whose pair framing is below the threshold, Pooled naming it; a model without probes is not measured', () => {
    const c = comprehension.of([...probes('m_1', 'a', 40, 40), ...probes('m_1', 'b', 40, 30)], { ...order, models: ['m_1', 'm2'] }, 0.9);
    const marks = comprehension.marks(c, ['m_1', 'm2'], ['a', 'b'], 'Pooled');
    expect([...marks]).toEqual([['m_1', `${NOT_SHOWN} (b)`], ['m2', 'not measured'], ['Pooled', 'pools models not shown payoff-equivalent for them: m_1']]);
    const note = comprehension.note(c, marks, ['m_1', 'm2'], ['a', 'b']);
    expect(note).toContain('the R and shift of m_1 (b: 30/40 probes answered with the game\'s payoff, below 0.9; below a by more than sampling error)');
    const tex = '\\begin{table}\n\\begin{tabular}{lr}\nm\\_1 & 1 \\\\\n\\end{tabular}\n\\end{table}\n';
    const [marked] = comprehension.markFiles([{ path: '/r/table3.tex', content: tex }], note, marks, ['m_1', 'm2', 'Pooled']);
    expect(marked.content).toMatch(/\\end\{tabular\}\n\\par\\smallskip\{\\footnotesize Not shown .*the R and shift of m\\_1 \(b: .*\}\n\\end\{table\}\n$/);
  });
});

describe('marking table3.csv', () => {
  const cell = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.string(),
    fc.constantFrom('=SUM(A1)', '-0.5', 'a,b', 'say "x"', ' edge '));
  it('keeps every cell as written and adds the comprehension column last, row by row', () => {
    fc.assert(fc.property(fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 6 }), (rows) => {
      const header = ['model', 'R', 'shift'];
      const csv = toCsv(header, rows);
      const keys = rows.map((_, i) => `k${i}`);
      const marks = new Map(keys.map((k, i) => [k, i % 2 ? `${NOT_SHOWN} (b)` : 'shown']));
      const [out] = comprehension.markFiles([{ path: '/r/table3.csv', content: csv }], '', marks, keys);
      const before = Papa.parse<string[]>(csv.trimEnd()).data;
      const after = Papa.parse<string[]>((out.content as string).trimEnd()).data;
      expect(after[0]).toEqual([...header, 'comprehension']);
      expect(after.slice(1).map((r) => r.slice(0, -1))).toEqual(before.slice(1));
      expect(after.slice(1).map((r) => r[r.length - 1])).toEqual(keys.map((k) => marks.get(k)));
    }), { numRuns: 200 });
  });
});

describe('the comprehension figure', () => {
  it('a point and interval per model × framing, coloured by verdict, the threshold once per panel; compiles without a warning', async () => {
    const c = comprehension.of([...probes('m_1', 'a', 40, 40), ...probes('m_1', 'b', 40, 30), ...probes('m2', 'a', 8, 8), ...probes('m2', 'b', 8, 8)],
      { ...order, models: ['m_1', 'm2'] }, 0.9);
    const f = comprehension.figure(c);
    expect(vegaLiteWarnings(f.spec)).toEqual([]);
    const rows = (f.spec as { data: { values: Record<string, unknown>[] } }).data.values;
    expect(rows.map((r) => [r.model, r.framing, r.accuracy, r.verdict])).toEqual([
      ['m_1', 'a', 1, 'shown'], ['m_1', 'b', 0.75, 'not shown'], ['m2', 'a', 1, 'shown'], ['m2', 'b', 1, 'shown']]);
    const svg = await renderSvg(f.spec);
    expect((svg.match(/stroke-dasharray="4,3"/g) ?? []).length).toBe(2);
  });
});
