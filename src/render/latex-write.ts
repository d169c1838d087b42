/** The text of a laid-out LaTeX table (latex-layout.ts): its header comment, floats or longtables, a part per column split. */
import { ONE_COLUMN_PT, TWO_COLUMN_PT, type LatexTable } from './latex-cells.js';
import { hasPlaceholder, latexEscape, UNICODE_DEFINITION } from './latex-escape.js';
import { FLOAT_LINES, groupRuns, type LatexLayout, type LatexPart } from './latex-layout.js';

/** Lines set one under another in a cell (a header's words, an interval under its point). */
function stack(lines: readonly string[], align: string, pos: 't' | 'b'): string {
  return lines.length <= 1 ? (lines[0] ?? '') : `\\begin{tabular}[${pos}]{@{}${align}@{}}${lines.join('\\\\')}\\end{tabular}`;
}

const row = (cells: readonly string[]) => `${cells.join(' & ')} \\\\`;

function headerRows(t: LatexTable, layout: LatexLayout, part: LatexPart): string[] {
  const runs = groupRuns(t, part.columns);
  const grouped = runs.some((r) => r.group !== undefined);
  const heads = part.columns.map((j) => stack(layout.headers[j], t.columns[j].align, 'b'));
  if (!grouped) return [row(heads)];
  const top = runs.map((r) => (r.group === undefined
    ? Array(r.to - r.from + 1).fill('')
    : [`\\multicolumn{${r.to - r.from + 1}}{c}{${latexEscape(r.group)}}`]));
  const rules = runs.filter((r) => r.group !== undefined).map((r) => `\\cmidrule(lr){${r.from + 1}-${r.to + 1}}`);
  return [row(top.flat()), rules.join(' '), row(heads)];
}

function bodyRows(t: LatexTable, layout: LatexLayout, part: LatexPart): string[] {
  const rules = new Set(t.rulesAfter ?? []);
  const sections = new Map((t.sections ?? []).map((x) => [x.before, x.title]));
  const n = part.columns.length;
  return t.rows.flatMap((_, i) => [
    ...(sections.has(i) ? [...(i > 0 && !rules.has(i - 1) ? ['\\addlinespace'] : []),
      `\\multicolumn{${n}}{@{}l}{\\emph{${latexEscape(sections.get(i)!)}}} \\\\`] : []),
    row(part.columns.map((j) => stack(layout.cells[i][j], t.columns[j].align, 't'))),
    ...(rules.has(i) && i < t.rows.length - 1 ? ['\\midrule'] : []),
  ]);
}

const spec = (t: LatexTable, part: LatexPart) => part.columns.map((j) => t.columns[j].align).join('');
const sizeLines = (layout: LatexLayout) => [`\\${layout.style.size}`, ...(layout.style.sep === 6 ? [] : [`\\setlength{\\tabcolsep}{${layout.style.sep}pt}`])];

function floatPart(t: LatexTable, layout: LatexLayout, part: LatexPart, caption: string, label: string, note: readonly string[]): string[] {
  const wide = part.width > TWO_COLUMN_PT;
  const env = wide ? '\\samegamefloat' : 'table';
  return [
    ...(wide ? ['\\begingroup\\ifdim\\columnwidth<\\textwidth\\def\\samegamefloat{table*}\\else\\def\\samegamefloat{table}\\fi'] : []),
    `\\begin{${env}}[htbp]`,
    '\\centering',
    ...sizeLines(layout),
    `\\caption{${caption}}`,
    `\\label{${label}}`,
    `\\begin{tabular}{${spec(t, part)}}`,
    '\\toprule', ...headerRows(t, layout, part), '\\midrule',
    ...bodyRows(t, layout, part),
    '\\bottomrule',
    '\\end{tabular}',
    ...note,
    `\\end{${env}}${wide ? '\\endgroup' : ''}`,
  ];
}

function longPart(t: LatexTable, layout: LatexLayout, part: LatexPart, caption: string, label: string): string[] {
  const head = ['\\toprule', ...headerRows(t, layout, part), '\\midrule'];
  return [
    '\\begingroup',
    ...sizeLines(layout),
    `\\begin{longtable}{${spec(t, part)}}`,
    `\\caption{${caption}}\\label{${label}}\\\\`,
    ...head, '\\endfirsthead',
    `\\multicolumn{${part.columns.length}}{l}{\\emph{(continued)}}\\\\`,
    ...head, '\\endhead',
    '\\bottomrule', '\\endfoot',
    ...bodyRows(t, layout, part),
    '\\end{longtable}',
    '\\endgroup',
  ];
}

/** Laid out for a column of a two-column layout (`--latex-width` ≤ 240 pt). */
const forColumn = (layout: LatexLayout) => layout.target <= TWO_COLUMN_PT;

/** The rows from..to of a table, its rules and section headings with them, and their lines in the layout. */
function rowSlice(t: LatexTable, layout: LatexLayout, from: number, to: number): [LatexTable, LatexLayout] {
  return [{
    ...t, rows: t.rows.slice(from, to), rulesAfter: (t.rulesAfter ?? []).filter((i) => i >= from && i < to).map((i) => i - from),
    sections: (t.sections ?? []).filter((s) => s.before >= from && s.before < to).map((s) => ({ ...s, before: s.before - from })),
  }, { ...layout, cells: layout.cells.slice(from, to) }];
}

/** Runs of rows of at most FLOAT_LINES body lines each (a longtable cannot be set in two columns: a long table there is several floats). */
function rowChunks(t: LatexTable, layout: LatexLayout): [number, number][] {
  const sections = new Set((t.sections ?? []).map((s) => s.before));
  const chunks: [number, number][] = [];
  let from = 0, lines = 0;
  layout.cells.forEach((r, i) => {
    const n = Math.max(1, ...r.map((c) => c.length)) + (sections.has(i) ? 1 : 0);
    if (i > from && lines + n > FLOAT_LINES) { chunks.push([from, i]); from = i; lines = 0; }
    lines += n;
  });
  chunks.push([from, t.rows.length]);
  return chunks;
}

function columnFit(layout: LatexLayout, widest: number, floats: number): string {
  const many = floats > 1 ? `; in ${floats} floats of at most ${FLOAT_LINES} lines (a longtable cannot be set in two columns)` : '';
  return widest <= layout.target ? `fits a two-column layout's column (${layout.target} pt)${many}`
    : `wider than a two-column layout's column (${layout.target} pt): laid out for a one-column article (${ONE_COLUMN_PT} pt), in a two-column ` +
      `document it spans both columns (table*)${many}`;
}

function headerComment(layout: LatexLayout, tex: string, floats: number): string[] {
  const widest = Math.max(...layout.parts.map((p) => p.width));
  const fit = forColumn(layout) ? columnFit(layout, widest, floats)
    : layout.long ? `fits a one-column article (${layout.target} pt); a longtable, for one-column documents`
    : widest <= TWO_COLUMN_PT ? `fits a one-column article (${layout.target} pt) and a two-column layout's column (${TWO_COLUMN_PT} pt)`
      : `fits a one-column article (${layout.target} pt); in a two-column document it spans both columns (table*)`;
  return [
    '% Written by samegame for pdflatex, with \\usepackage[T1]{fontenc}, \\usepackage[utf8]{inputenc} and ' +
      `\\usepackage{booktabs}${layout.long && !forColumn(layout) ? ' and \\usepackage{longtable}' : ''}.`,
    `% About ${Math.ceil(widest)} pt wide at \\${layout.style.size} in a 10 pt article` +
      `${layout.parts.length > 1 ? `, in ${layout.parts.length} parts` : ''}: `
      + `${widest <= layout.target || forColumn(layout) ? fit : `wider than the ${layout.target} pt laid out for`}.`,
    ...(hasPlaceholder(tex) ? [
      '% Characters pdflatex cannot set are written \\samegameU{<code point>} and print as [U+<code point>] unless the document defines',
      '% \\samegameU first (under xelatex or lualatex, with a font that has them: \\newcommand\\samegameU[1]{\\symbol{"#1}}).',
      UNICODE_DEFINITION,
    ] : []),
  ];
}

/** The file's text. */
export function writeLayout(t: LatexTable, layout: LatexLayout): string {
  const chunks = forColumn(layout) && layout.long ? rowChunks(t, layout) : [[0, t.rows.length] as [number, number]];
  const n = layout.parts.length * chunks.length;
  const caption = latexEscape(t.caption);
  const note = t.note ? [`\\par\\smallskip{\\footnotesize ${latexEscape(t.note)}\\par}`] : [];
  const body = chunks.flatMap(([from, to], c) => layout.parts.flatMap((part, p) => {
    const k = c * layout.parts.length + p;
    const cap = n > 1 ? `${caption} (${k + 1} of ${n})` : caption;
    const label = k === 0 ? t.label : `${t.label}-${k + 1}`;
    const last = k === n - 1 ? note : [];
    if (chunks.length > 1) return floatPart(...rowSlice(t, layout, from, to), part, cap, label, last);
    return layout.long && !forColumn(layout) ? [...longPart(t, layout, part, cap, label), ...last] : floatPart(t, layout, part, cap, label, last);
  }));
  const text = body.join('\n');
  return [...headerComment(layout, `${caption}\n${text}`, chunks.length), text, ''].join('\n');
}
