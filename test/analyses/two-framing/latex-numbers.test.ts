import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reproduceTables } from '../../../src/commands/reproduce.js';
import { MemoryLogger } from '../../../src/core/logger.js';
import { parsePublished, SHIPPED_PUBLISHED } from '../../../src/sources/published.js';
import { intervalParts, parseLatexTable } from '../../helpers/latex.js';
import { ROOT } from '../../helpers/cli.js';

/**
 * The .tex tables a paper inputs print each statistic at the decimals the report's tables print it
 * at, not the CSVs' 12 significant digits. Expected values: the paper's own Tables 2 and 3 (the
 * shipped published.csv, printed at three decimals and whole counts), which the shipped data
 * reproduce exactly; the reproduction table's numbers worked out by hand from reproduction.csv.
 */
const res = reproduceTables({ logger: new MemoryLogger() });
const tex = (name: string) => parseLatexTable(res.files.find((f) => f.path.endsWith(`reports/${name}`))!.content as string);
const published = parsePublished(readFileSync(join(ROOT, SHIPPED_PUBLISHED), 'utf8'), 'published.csv').rows;
const paper = (table: string, model: string, game: string, statistic: string) =>
  published.find((p) => p.table === table && p.model === model && (p.game ?? '') === game && p.statistic === statistic)!.published.text;

describe('table2.tex and table3.tex at the report\'s decimals', () => {
  it('Table 2: every rate, count and difference as the paper prints it', () => {
    const t = tex('table2.tex');
    expect(t.rows).toHaveLength(12);
    // One header per framing over its rate and count (grouped, with a \cmidrule), not two bare "count" headers.
    expect(t.groups).toEqual(['', '', 'business', 'business', 'friend-sharing', 'friend-sharing', '']);
    expect(t.header).toEqual(['Model', 'Game', 'rate', 'count', 'rate', 'count', 'Difference']);
    for (const [model, game, ...cells] of t.rows) {
      const want = ['base_rate', 'base_count', 'alt_rate', 'alt_count', 'difference'].map((s) => paper('table2', model, game.replace(/\\'/g, "'"), s));
      expect(cells.map((c) => c.replace('$-$', '-')), `${model} / ${game}`).toEqual(want);
    }
  });

  it('Table 3: every point as the paper prints it, every cell at three decimals', () => {
    const t = tex('table3.tex');
    expect(t.header).toEqual(['Model', 'R', 'Shift']);
    for (const [model, R, shift] of t.rows) {
      expect([intervalParts(R)[0], intervalParts(shift)[0]], model).toEqual([paper('table3', model, '', 'R'), paper('table3', model, '', 'shift')]);
    }
    for (const r of t.rows) for (const c of r.slice(1)) expect(c).toMatch(/^\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]$/);
    // GPT-3.5's R interval, 0.955264210454 and 0.975434854642 in table3.csv, compactly beside its point.
    expect(t.rows[0].slice(0, 2)).toEqual(['GPT-3.5', '0.967 [0.955, 0.975]']);
  });
});

describe('reproduction.tex at the report\'s decimals', () => {
  it('a computed value at two decimals more than published, tolerances too; the rows under their table\'s heading', () => {
    const t = tex('reproduction.tex');
    expect(t.long).toBe(true); // 84 rows: a longtable, never one float
    expect(t.sections).toEqual(['Table 2', 'Table 3']);
    expect(t.header).toEqual(['Model', 'Game', 'Statistic', 'Published', 'Computed', 'Tolerance', 'Verdict']);
    // reproduction.csv: Table 3 GPT-3.5 R_lo, published 0.956, computed 0.955264210454,
    // tolerance 0.00113675745037: five decimals each; Table 3's rows follow Table 2's 60, the not-exact first.
    expect(t.rows[60]).toEqual(['GPT-3.5', '', 'R\\_lo', '0.956', '0.95526', '0.00114', 'within-mc']);
    // A count is published whole: computed whole, its tolerance (0.5) at two decimals.
    expect(t.rows.find((r) => r[1] === 'Prisoner\'s Dilemma' && r[2] === 'base\\_count' && r[0] === 'GPT-3.5')!.slice(3, 6)).toEqual(['26', '26', '0.50']);
    // Snowdrift's difference is 0.21 computed as 0.34 − 0.13 = 0.21000000000000002: 0.21000, not 12 digits.
    expect(t.rows.find((r) => r[1] === 'Snowdrift / Chicken' && r[2] === 'difference' && r[0] === 'GPT-3.5')!.slice(3, 6)).toEqual(['0.210', '0.21000', '0.00050']);
  });
});
