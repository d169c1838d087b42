/**
 * The reproduction verdicts as LaTeX (reports/reproduction.tex): every published number beside
 * the computed one, the numbers that are not exact first, each at the decimals the report's table
 * prints it at (outputs.ts `shownNumbers`; reproduction.csv keeps 12 significant digits).
 */
import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import { shown, type DisplayNames } from '../../core/display-names.js';
import { latexTable, leftColumn, rightColumn } from '../../render/latex.js';
import type { Reproduction } from './compare.js';
import { shownNumbers } from './outputs.js';
import { TABLE_NAMES } from './table-names.js';


export function reproductionLatex(rep: Reproduction, names?: DisplayNames): string {
  const order = [...rep.rows.filter((x) => x.verdict !== 'exact'), ...rep.rows.filter((x) => x.verdict === 'exact')];
  const c = rep.counts;
  const numbers = shownNumbers(rep.rows);
  return latexTable({
    caption: `Published against computed values: ${rep.rows.length} published numbers, ${c.exact} exact, ${c['within-mc']} within Monte Carlo error, ${c.differs} differ${c.missing ? `, ${c.missing} missing` : ''} (the numbers that are not exact first).`,
    label: 'tab:reproduction',
    columns: [leftColumn('Table'), leftColumn('Model'), leftColumn('Game'), leftColumn('Statistic'), rightColumn('Published'), rightColumn('Computed'), rightColumn('Difference'), rightColumn('Tolerance'), leftColumn('Verdict')],
    rows: order.map((x) => {
      const n = numbers(x);
      return [TABLE_NAMES[x.table].label, shown(names, x.model), x.game ? shown(names, x.game) : '', x.statistic, { number: x.published },
        { number: n?.computed ?? '' }, { number: n?.difference ?? '' }, { number: n?.tolerance ?? '' }, x.verdict];
    }),
    rulesAfter: order.findIndex((x) => x.verdict === 'exact') > 0 ? [order.findIndex((x) => x.verdict === 'exact') - 1] : [],
  });
}

export const reproductionLatexFile = (reportsDir: string, rep: Reproduction, names?: DisplayNames): OutputFile =>
  ({ path: join(reportsDir, 'reproduction.tex'), content: reproductionLatex(rep, names) });
