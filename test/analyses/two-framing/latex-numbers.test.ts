import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reproduceTables } from '../../../src/commands/reproduce.js';
import { MemoryLogger } from '../../../src/core/logger.js';
import { parsePublished, SHIPPED_PUBLISHED } from '../../../src/sources/published.js';
import { parseLatexTable } from '../../helpers/latex.js';
import { ROOT } from '../../helpers/cli.js';

/**
 * The .tex tables a paper inputs print each statistic at the decimals the report's tables print it
 * at, not the CSVs' 12 significant digits. Expected values: the paper's own Tables 2 and 3 (the
 * shipped published.csv, printed at three decimals and whole counts), which the shipped data
 * reproduce exactly; the reproduction table's numbers worked out by hand from reproduction.csv.
 */
const res = reproduceTables({ dryRun: true, logger: new MemoryLogger() });
const tex = (name: string) => parseLatexTable(res.files.find((f) => f.path.endsWith(`reports/${name}`))!.content as string);
const published = parsePublished(readFileSync(join(ROOT, SHIPPED_PUBLISHED), 'utf8'), 'published.csv').rows;
const paper = (table: string, model: string, game: string, statistic: string) =>
  published.find((p) => p.table === table && p.model === model && (p.game ?? '') === game && p.statistic === statistic)!.published.text;

describe('table2.tex and table3.tex at the report\'s decimals', () => {
  it('Table 2: every rate, count and difference as the paper prints it', () => {
    const t = tex('table2.tex');
    expect(t.rows).toHaveLength(12);
    for (const [model, game, ...cells] of t.rows) {
      const want = ['base_rate', 'base_count', 'alt_rate', 'alt_count', 'difference'].map((s) => paper('table2', model, game.replace(/\\'/g, "'"), s));
      expect(cells.map((c) => c.replace('$-$', '-')), `${model} / ${game}`).toEqual(want);
    }
  });

  it('Table 3: every point as the paper prints it, every cell at three decimals', () => {
    const t = tex('table3.tex');
    expect(t.header).toEqual(['Model', 'R', 'R low', 'R high', 'Shift', 'Shift low', 'Shift high']);
    for (const [model, R, , , shift] of t.rows) {
      expect([R, shift], model).toEqual([paper('table3', model, '', 'R'), paper('table3', model, '', 'shift')]);
    }
    for (const r of t.rows) for (const c of r.slice(1)) expect(c).toMatch(/^\d\.\d{3}$/);
    // GPT-3.5's R interval, 0.955264210454 and 0.975434854642 in table3.csv.
    expect(t.rows[0].slice(0, 4)).toEqual(['GPT-3.5', '0.967', '0.955', '0.975']);
  });
});

describe('reproduction.tex at the report\'s decimals', () => {
  it('a computed value at two decimals more than published, differences and tolerances too', () => {
    const t = tex('reproduction.tex');
    // reproduction.csv: Table 3 GPT-3.5 R_lo, published 0.956, computed 0.955264210454,
    // difference -0.000735789545597, tolerance 0.00113675745037: five decimals each.
    expect(t.rows[0]).toEqual(['Table 3', 'GPT-3.5', '', 'R\\_lo', '0.956', '0.95526', '$-$0.00074', '0.00114', 'within-mc']);
    // A count is published whole: computed whole, its difference and tolerance (0.5) at two decimals.
    expect(t.rows.find((r) => r[2] === 'Prisoner\'s Dilemma' && r[3] === 'base\\_count' && r[1] === 'GPT-3.5')!.slice(4, 8)).toEqual(['26', '26', '0.00', '0.50']);
    // Snowdrift's difference is 0.21 computed as 0.34 − 0.13 = 0.21000000000000002: 0.00000, not 2.77555756156e-17.
    expect(t.rows.find((r) => r[2] === 'Snowdrift / Chicken' && r[3] === 'difference' && r[1] === 'GPT-3.5')!.slice(4, 8)).toEqual(['0.210', '0.21000', '0.00000', '0.00050']);
  });
});
