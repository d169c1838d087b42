import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/analysis.js';
import { MAX_FIGURE_ROWS, omittedFigures, twoFramingFigures } from '../../../src/analyses/two-framing/figures.js';
import { figuresSection } from '../../../src/analyses/two-framing/report.js';

// A table of `models` models × 4 games × 2 framings: 4·models pairs (one row each in the Table 2
// dumbbell and the cell-R2 figure) and models + 1 rows (Pooled) in the Table 3 forest.
function table(models: number): CellTable {
  const cells = [];
  for (let m = 0; m < models; m++) for (const g of ['G1', 'G2', 'G3', 'G4']) for (const [f, x] of [['b', 10 + (m % 7)], ['s', 20 + (m % 5)]] as const) {
    cells.push({ key: { model: `M${m}`, game: g, framing: f }, obs: { kind: 'binary' as const, n: 40, x } });
  }
  return { factors: ['model', 'game', 'framing'], cells };
}
const settings = { seed: 5, reps: 50, attenuation: 0.7, base: 'b', alt: 's' };

describe('per-row figures are drawn up to MAX_FIGURE_ROWS rows', () => {
  it('500 rows: 125 models × 4 games → every figure', () => {
    const a = analyzeTwoFraming(table(125), settings);
    expect(MAX_FIGURE_ROWS).toBe(500);
    expect(omittedFigures(a)).toEqual([]);
    expect(twoFramingFigures(a).map((f) => f.id)).toEqual(['table2-dumbbell', 'table3-forest', 'cell-r2', 'bootstrap-pooled']);
  });

  it('504 rows: 126 models → the dumbbell and cell-R2 figures are left out and the report says so', () => {
    const a = analyzeTwoFraming(table(126), settings);
    expect(omittedFigures(a)).toEqual([{ id: 'table2-dumbbell', rows: 504 }, { id: 'cell-r2', rows: 504 }]);
    const figures = twoFramingFigures(a);
    expect(figures.map((f) => f.id)).toEqual(['table3-forest', 'bootstrap-pooled']);
    const section = figuresSection(figures, undefined, undefined, omittedFigures(a));
    expect(section.blocks[1]).toEqual({ kind: 'text', text: 'Not drawn (a figure shows at most 500 rows; the tables and CSV files have every row): table2-dumbbell (504 rows), cell-r2 (504 rows).' });
  });
});
