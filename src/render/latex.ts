/**
 * LaTeX tables (reports/*.tex): booktabs rules (\toprule, \midrule, \bottomrule), a caption and a
 * label, text escaped for LaTeX, numbers with a true minus sign: a number's text as the caller
 * gives it (a paper's table prints each statistic at fixed decimals, core/format.ts `fixed`, as
 * the report's tables do), a bare number by the files' rule (core/format.ts `full`). Each file is
 * a `table` float that compiles when \input into a document loading booktabs (latexDocument is
 * such a document, for checking a file alone).
 */
import { full } from '../core/format.js';

/** A cell: text (escaped), a number's text as given, or a bare number (written by the files' rule; NaN empty). */
export type LatexCell = string | number | { readonly number: string };

/** A column of a LaTeX table with its header: text aligned left, numbers right. */
export const leftColumn = (header: string) => ({ header, align: 'l' as const });
export const rightColumn = (header: string) => ({ header, align: 'r' as const });

export interface LatexTable {
  readonly caption: string;
  /** \label{…}: letters, digits, ':' and '-' (e.g. "tab:table3"). */
  readonly label: string;
  readonly columns: readonly { readonly header: string; readonly align: 'l' | 'r' | 'c' }[];
  readonly rows: readonly (readonly LatexCell[])[];
  /** Rows after which a \midrule is drawn (e.g. before a Pooled row), 0-based. */
  readonly rulesAfter?: readonly number[];
  /** A note under the table (escaped). */
  readonly note?: string;
}

const SPECIAL: Readonly<Record<string, string>> = {
  '\\': '\\textbackslash{}', '&': '\\&', '%': '\\%', $: '\\$', '#': '\\#', _: '\\_', '{': '\\{', '}': '\\}',
  '~': '\\textasciitilde{}', '^': '\\textasciicircum{}',
  // Characters samegame's own text uses that pdflatex's default input encoding does not map.
  '\u2264': '$\\le$', '\u2265': '$\\ge$', '\u2212': '$-$', '\u00d7': '$\\times$', '\u00b1': '$\\pm$', '\u2014': '---', '\u2013': '--',
  '\u00a0': '~', '\u2009': '\\,', '\u202f': '\\,', '\u03bb\u0302': '$\\hat\\lambda$', '\u03bb': '$\\lambda$',
};
// The specials, and a character T1 would join with the next into a ligature (-- '' `` << >> ,, ?` !`), which gets {} after it.
const SPECIALS = /\u03bb\u0302|[\\&%$#_{}~^\u2264\u2265\u2212\u00d7\u00b1\u2014\u2013\u00a0\u2009\u202f\u03bb]|([-'`<>,])(?=\1)|[!?](?=`)/g;


/**
 * Text as LaTeX typesets it literally: & % $ # _ { } ~ ^ \ escaped, ligatures broken, a few
 * symbols spelled for pdflatex (a single ' or ` stays a typographic quote).
 */
export function latexEscape(text: string): string {
  return text.replace(SPECIALS, (c) => SPECIAL[c] ?? `${c}{}`);
}

/** A number's text, a leading minus typeset as a minus sign. */
export function latexNumber(text: string): string {
  return text.startsWith('-') ? `$-$${text.slice(1)}` : text;
}

function cell(c: LatexCell): string {
  if (typeof c === 'number') return latexNumber(full(c));
  if (typeof c === 'string') return latexEscape(c);
  return latexNumber(c.number);
}

const LABEL = /^[A-Za-z0-9:-]+$/;

/** The LaTeX text of one table (a `table` float with its tabular), ending in a newline. */
export function latexTable(t: LatexTable): string {
  if (!LABEL.test(t.label)) throw new RangeError(`a LaTeX label is letters, digits, ':' and '-': ${JSON.stringify(t.label)}`);
  const width = t.columns.length;
  for (const r of t.rows) if (r.length !== width) throw new RangeError(`a row of ${r.length} cells in a table of ${width} columns (${t.label})`);
  const line = (cells: readonly string[]) => `${cells.join(' & ')} \\\\`;
  const rules = new Set(t.rulesAfter ?? []);
  const body = t.rows.flatMap((r, i) => [line(r.map(cell)), ...(rules.has(i) && i < t.rows.length - 1 ? ['\\midrule'] : [])]);
  return [
    '% Written by samegame; needs \\usepackage{booktabs}.',
    '\\begin{table}[htbp]',
    '\\centering',
    `\\caption{${latexEscape(t.caption)}}`,
    `\\label{${t.label}}`,
    `\\begin{tabular}{${t.columns.map((c) => c.align).join('')}}`,
    '\\toprule',
    line(t.columns.map((c) => latexEscape(c.header))),
    '\\midrule',
    ...body,
    '\\bottomrule',
    '\\end{tabular}',
    ...(t.note ? [`\\par\\smallskip{\\footnotesize ${latexEscape(t.note)}\\par}`] : []),
    '\\end{table}',
    '',
  ].join('\n');
}

/** A minimal document around table files' text, for compiling them alone (landscape-wide tables scaled by the page). */
export function latexDocument(tables: readonly string[]): string {
  return [
    '\\documentclass{article}',
    '\\usepackage[T1]{fontenc}',
    '\\usepackage[utf8]{inputenc}',
    '\\usepackage{booktabs}',
    '\\usepackage[margin=1cm,paperwidth=60cm,paperheight=80cm]{geometry}',
    '\\begin{document}',
    ...tables,
    '\\end{document}',
    '',
  ].join('\n');
}
