/**
 * Table 2, Table 3 and family robustness as LaTeX (reports/table2.tex, table3.tex,
 * family-robustness.tex): the rows of the CSVs, each number at the decimals the report's tables
 * print it at (numbers.ts; the CSVs keep 12 significant digits), names by their display names
 * when given.
 */
import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import { shown, type DisplayNames } from '../../core/display-names.js';
import { POOLED } from '../../core/names.js';
import { intervalCell, latexTable, leftColumn, rightColumn, type LatexCell, type LatexOptions } from '../../render/latex.js';
import { conservativeNote, intervalKind, type TwoFramingAnalysis } from './analysis.js';
import { familyRows, table2Rows, table3Rows } from './tables.js';
import { namedAnalysis } from './named.js';
import { countText, statText } from './numbers.js';
import { andList, BUILTIN_COLUMNS, named, table3Columns } from '../../stats/table3.js';

/** A statistic or a count as the report prints it; no value (an interval of a cell of fewer than 3 matches) empty. */
const stat = (x: number | string): LatexCell => ({ number: typeof x === 'number' && Number.isFinite(x) ? statText(x) : '' });
const count = (x: number): LatexCell => ({ number: Number.isFinite(x) ? countText(x) : '' });
const text = (x: number | string): string => (typeof x === 'number' && Number.isFinite(x) ? statText(x) : '');
/** A statistic with its interval, compactly ("0.651 [0.639, 0.661]"). */
const withInterval = (x: number | string, lo: number | string, hi: number | string): LatexCell => intervalCell(text(x), text(lo), text(hi));

export function table2Latex(a: TwoFramingAnalysis, names?: DisplayNames, latex: LatexOptions = {}): string {
  const { base, alt } = a.settings;
  return latexTable({
    caption: (`Cooperation rates under the ${shown(names, base)} and ${shown(names, alt)} framings (counts of cooperative decisions), and the ` +
      `difference ${shown(names, alt)} − ${shown(names, base)}.`),
    label: 'tab:table2',
    columns: [leftColumn('Model'), leftColumn('Game'), rightColumn('rate', shown(names, base)), rightColumn('count', shown(names, base)),
      rightColumn('rate', shown(names, alt)), rightColumn('count', shown(names, alt)), rightColumn('Difference')],
    rows: table2Rows(a).map((x) => [shown(names, x.model), shown(names, x.game), stat(x.base_rate), count(x.base_count), stat(x.alt_rate), count(x.alt_count),
      stat(x.difference)]),
  }, latex);
}

/** Table 3's columns (stats/table3.ts), each with its interval: the rows of table3.csv. */
export function table3Latex(a: TwoFramingAnalysis, names?: DisplayNames, latex: LatexOptions = {}): string {
  const rows = table3Rows(a);
  const cols = table3Columns();
  const what = andList(cols.map(named));
  return latexTable({
    caption: (`${what.charAt(0).toUpperCase()}${what.slice(1)} per model, ${conservativeNote(a)}; 95 ` +
      `% ${intervalKind(a)} intervals${a.clusterRobust ? '' : ` (B = ${a.settings.reps})`}` +
      `${a.bands ? ', the per-model rows as simultaneous sup-t bands (Pooled pointwise)' : ''}.`),
    label: 'tab:table3',
    columns: [leftColumn('Model'), ...cols.map((c) => rightColumn(c.text.short))],
    rows: rows.map((x) => [x.model === POOLED ? POOLED : shown(names, x.model), ...cols.map((c) => withInterval(x[c.column], x[`${c.column}_lo`],
      x[`${c.column}_hi`]))]),
    rulesAfter: [rows.length - 2],
  }, latex);
}

export function familyLatex(a: TwoFramingAnalysis, names?: DisplayNames, latex: LatexOptions = {}): string {
  return latexTable({
    caption: (`Family robustness over the ${a.family?.framings.length ?? 0} framings present (1 − the largest JSD / ln 2 over framing pairs), with 95 ` +
      `% ${intervalKind(a)} intervals.`),
    label: 'tab:family-robustness',
    columns: [leftColumn('Model'), leftColumn('Game'), rightColumn(BUILTIN_COLUMNS.robustness.text.short)],
    rows: familyRows(a).map((x) => [x.model === POOLED ? POOLED : shown(names, x.model), x.game === 'All' ? 'All' : shown(names, x.game), withInterval(x.R,
      x.R_lo, x.R_hi)]),
  }, latex);
}

/** reports/table2.tex, table3.tex and (more than two framings) family-robustness.tex. */
export function twoFramingLatexFiles(reportsDir: string, a: TwoFramingAnalysis, names?: DisplayNames, latex: LatexOptions = {}): OutputFile[] {
  return [
    { path: join(reportsDir, 'table2.tex'), content: table2Latex(a, names, latex) },
    { path: join(reportsDir, 'table3.tex'), content: table3Latex(a, names, latex) },
    ...(a.family ? [{ path: join(reportsDir, 'family-robustness.tex'), content: familyLatex(a, names, latex) }] : []),
  ];
}

/** The files with their Table 2, Table 3 and family .tex written by display names and for `--latex-width` (the other files as they are). */
export function withNamedLatex(files: readonly OutputFile[], reportsDir: string, a: TwoFramingAnalysis | undefined, names?: DisplayNames,
  latex: LatexOptions = {}): OutputFile[] {
  const hasNames = names !== undefined && Object.keys(names).length > 0;
  if (!a || (!hasNames && latex.width === undefined)) return [...files];
  const named = new Map(twoFramingLatexFiles(reportsDir, hasNames ? namedAnalysis(a, names) : a, undefined, latex).map((f) => [f.path, f]));
  return files.map((f) => named.get(f.path) ?? f);
}
