/**
 * LaTeX tables (reports/*.tex), built to fit a one-column article (345 pt) at \small: booktabs
 * rules, grouped headers over \cmidrule, an interval written compactly beside its point
 * ("0.651 [0.639, 0.661]"), columns with no value dropped, a caption and a label on each, text
 * escaped for pdflatex (latex-escape.ts), numbers with a true minus sign. The layout
 * (latex-layout.ts) is the first of \small, narrower column gaps, \footnotesize and intervals
 * under their points that fits the width by pdflatex's own character widths (latex-width.ts);
 * a table wider than that is split into parts that repeat its key columns, and a table longer
 * than a page float holds is a `longtable`. A float that fits 240 pt is a `table` in a
 * two-column document too; a wider one spans both columns there (`table*`). Each file states in
 * its first lines the packages it needs and its width.
 */
import { ONE_COLUMN_PT, TWO_COLUMN_PT, type LatexTable } from './latex-cells.js';
import { latexMeasures, layoutTable } from './latex-layout.js';
import { writeLayout } from './latex-write.js';

export { latexEscape } from './latex-escape.js';
export { cellLines, emptyCell, intervalCell, latexNumber, leftColumn, rightColumn, ONE_COLUMN_PT, TWO_COLUMN_PT,
  type LatexCell, type LatexColumn, type LatexTable } from './latex-cells.js';

export interface LatexOptions {
  /** The text width the table is laid out for, in pt: 345 (a one-column article, the default) or a column's (240). */
  readonly width?: number;
}

const LABEL = /^[A-Za-z0-9:-]+$/;

/** The LaTeX text of one table (floats or longtables, in parts when too wide), ending in a newline. */
export function latexTable(t: LatexTable, options: LatexOptions = {}): string {
  if (!LABEL.test(t.label)) throw new RangeError(`a LaTeX label is letters, digits, ':' and '-': ${JSON.stringify(t.label)}`);
  for (const r of t.rows) {
    if (r.length !== t.columns.length) throw new RangeError(`a row of ${r.length} cells in a table of ${t.columns.length} columns (${t.label})`);
  }
  const width = options.width ?? ONE_COLUMN_PT;
  if (!(Number.isFinite(width) && width > 0)) throw new RangeError(`a LaTeX text width is a positive number of pt: ${width}`);
  // One measure per style serves every width the table is laid out for.
  const measures = latexMeasures(t);
  const layout = layoutTable(t, width, measures);
  // For a column (two-column layouts): a table that fits it only in parts is set once at a one-column article's width, across both columns.
  return writeLayout(t, width <= TWO_COLUMN_PT && layout.parts.length > 1 ? { ...layoutTable(t, ONE_COLUMN_PT, measures), target: width } : layout);
}

/** The preamble every table file is written for: T1 fonts, UTF-8 input, booktabs and longtable (long tables). */
export const LATEX_PREAMBLE = ['\\usepackage[T1]{fontenc}', '\\usepackage[utf8]{inputenc}', '\\usepackage{booktabs}', '\\usepackage{longtable}'];

/** A one-column 10 pt article around table files' text (345 pt wide; `twocolumn`: two columns of 240 pt), for compiling them alone. */
export function latexDocument(tables: readonly string[], layout: 'one-column' | 'two-column' = 'one-column'): string {
  const two = layout === 'two-column';
  return [
    `\\documentclass[10pt${two ? ',twocolumn' : ''}]{article}`,
    ...LATEX_PREAMBLE,
    `\\usepackage[paperwidth=${two ? 8.5 : 6.2}in,paperheight=11in,` +
      `textwidth=${two ? 2 * TWO_COLUMN_PT + 10 : ONE_COLUMN_PT}pt,columnsep=10pt,textheight=9in]{geometry}`,
    '\\begin{document}',
    ...tables,
    '\\end{document}',
    '',
  ].join('\n');
}
