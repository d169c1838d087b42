/**
 * The reproduction verdicts as LaTeX (reports/reproduction.tex): every published number beside
 * the computed one, the numbers that are not exact first, each at the decimals the report's table
 * prints it at (outputs.ts `shownNumbers`; reproduction.csv keeps 12 significant digits).
 */
import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import { shown, type DisplayNames } from '../../core/display-names.js';
import { latexTable, leftColumn, rightColumn, type LatexOptions } from '../../render/latex.js';
import type { Reproduction } from './compare.js';
import { shownNumbers } from './outputs.js';
import { TABLE_NAMES } from './table-names.js';


export function reproductionLatex(rep: Reproduction, names?: DisplayNames, latex: LatexOptions = {}): string {
  const tables = [...new Set(rep.rows.map((x) => x.table))];
  const byTable = tables.map((t) => rep.rows.filter((x) => x.table === t));
  const order = byTable.flatMap((rows) => [...rows.filter((x) => x.verdict !== 'exact'), ...rows.filter((x) => x.verdict === 'exact')]);
  const starts = byTable.map((_, k) => byTable.slice(0, k).reduce((s, rows) => s + rows.length, 0));
  const c = rep.counts;
  const numbers = shownNumbers(rep.rows);
  return latexTable({
    caption: (`Published against computed values: ${rep.rows.length} published numbers, ${c.exact} exact, ${c['within-mc']} within Monte Carlo ` +
      `error, ${c.differs} differ${c.missing ? `, ${c.missing} missing` : ''}; per table, the numbers that are not exact first (the differences are in ` +
      `reproduction.csv).`),
    label: 'tab:reproduction',
    columns: [leftColumn('Model'), leftColumn('Game'), leftColumn('Statistic'), rightColumn('Published'), rightColumn('Computed'), rightColumn('Tolerance'),
      leftColumn('Verdict')],
    rows: order.map((x) => {
      const n = numbers(x);
      return [shown(names, x.model), x.game ? shown(names, x.game) : '', x.statistic, { number: x.published },
        { number: n?.computed ?? '' }, { number: n?.tolerance ?? '' }, x.verdict];
    }),
    sections: tables.map((t, k) => ({ before: starts[k], title: TABLE_NAMES[t].label })),
  }, latex);
}

export const reproductionLatexFile = (reportsDir: string, rep: Reproduction, names?: DisplayNames, latex: LatexOptions = {}): OutputFile =>
  ({ path: join(reportsDir, 'reproduction.tex'), content: reproductionLatex(rep, names, latex) });
