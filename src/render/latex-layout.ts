/**
 * How a LaTeX table is set to fit a width: the columns with a value kept, the first style that
 * fits (\small; narrower column gaps; \footnotesize; intervals under their points), else the
 * columns split into parts that repeat the key columns (the leading text columns), each as wide
 * as fits; a table of more lines than a page float holds is a longtable. Widths are pdflatex's
 * (latex-width.ts), so the choice is made without running LaTeX.
 */
import { cellLines, emptyCell, wrapText, type LatexCell, type LatexTable } from './latex-cells.js';
import { latexEscape } from './latex-escape.js';
import { latexTextWidth, type LatexSize } from './latex-width.js';

export interface LatexStyle {
  readonly size: LatexSize;
  /** \tabcolsep, pt. */
  readonly sep: number;
  /** Intervals set under their points. */
  readonly stacked: boolean;
  /** Text cells set in lines of at most this many pt. */
  readonly wrap?: number;
}

export const LATEX_STYLES: readonly LatexStyle[] = [
  { size: 'small', sep: 6, stacked: false },
  { size: 'small', sep: 3, stacked: false },
  { size: 'footnotesize', sep: 3, stacked: false },
  { size: 'footnotesize', sep: 3, stacked: true },
  { size: 'footnotesize', sep: 3, stacked: true, wrap: 72 },
  { size: 'footnotesize', sep: 3, stacked: true, wrap: 48 },
];

/** Body lines a page float holds beside its caption and header (a 10 pt article's text height at \small). */
export const FLOAT_LINES = 36;

export interface LatexPart {
  /** Indices of the table's columns in this part. */
  readonly columns: readonly number[];
  /** Estimated width, pt. */
  readonly width: number;
}

export interface LatexLayout {
  readonly style: LatexStyle;
  /** Each body cell's lines in the style (rows × columns), as measured: what the writer sets. */
  readonly cells: readonly (readonly (readonly string[])[])[];
  readonly parts: readonly LatexPart[];
  readonly long: boolean;
  /** The width laid out for, pt. */
  readonly target: number;
  /** Each column's header lines (escaped). */
  readonly headers: readonly (readonly string[])[];
}

interface Measured { widths: number[]; headers: string[][]; lines: number; cells: string[][][] }

/** A style's cell lines (cellLines with the style's stacking and wrapping). */
function styledLines(c: LatexCell, style: LatexStyle): string[] {
  const width = (s: string) => latexTextWidth(s, style.size);
  return cellLines(c, style.stacked, style.wrap === undefined ? undefined : { at: style.wrap, width });
}

/** Each column's width (content or header, whose words are set in lines no wider than the content), its header lines, the body's lines. */
function measure(t: LatexTable, style: LatexStyle): Measured {
  const w = (s: string) => latexTextWidth(s, style.size);
  const cells = t.rows.map((r) => r.map((c) => styledLines(c, style)));
  const content = t.columns.map((_, j) => Math.max(0, ...cells.flatMap((r) => r[j].map(w))));
  const headers = t.columns.map((c, j) => wrapText(c.header, content[j], w));
  const lines = cells.reduce((s, r) => s + Math.max(1, ...r.map((c) => c.length)), 0) + (t.sections?.length ?? 0);
  return { widths: content.map((x, j) => Math.max(x, ...headers[j].map(w))), headers, lines, cells };
}

/** A table's measure in each style, each taken once however many widths the table is laid out for. */
export interface LatexMeasures {
  readonly of: (style: LatexStyle) => Measured;
  /** How many styles were measured. */
  readonly measured: () => number;
}

export function latexMeasures(t: LatexTable): LatexMeasures {
  const memo = new Map<LatexStyle, Measured>();
  return {
    of(style) {
      const m = memo.get(style) ?? measure(t, style);
      memo.set(style, m);
      return m;
    },
    measured: () => memo.size,
  };
}

/** Runs of neighbouring columns (indices into `cols`) sharing a group. */
export function groupRuns(t: LatexTable, cols: readonly number[]): { group?: string; from: number; to: number }[] {
  const runs: { group?: string; from: number; to: number }[] = [];
  cols.forEach((j, k) => {
    const g = t.columns[j].group;
    const last = runs[runs.length - 1];
    if (g !== undefined && last?.group === g && last.to === k - 1) last.to = k;
    else runs.push({ ...(g === undefined ? {} : { group: g }), from: k, to: k });
  });
  return runs;
}

function partWidth(t: LatexTable, cols: readonly number[], m: Measured, style: LatexStyle): number {
  let w = cols.reduce((s, j) => s + m.widths[j] + 2 * style.sep, 0);
  for (const r of groupRuns(t, cols)) {
    if (r.group === undefined) continue;
    const span = cols.slice(r.from, r.to + 1).reduce((s, j) => s + m.widths[j] + 2 * style.sep, 0);
    w += Math.max(0, latexTextWidth(latexEscape(r.group), style.size) + 2 * style.sep - span);
  }
  return w;
}

/** The key columns (the leading ungrouped text columns, at least one) and the units after them (a group's columns stay together). */
function keysAndUnits(t: LatexTable, cols: readonly number[]): { keys: number[]; units: number[][] } {
  let k = 0;
  while (k < cols.length - 1 && t.columns[cols[k]].align === 'l' && t.columns[cols[k]].group === undefined) k++;
  const keys = cols.slice(0, Math.max(1, k));
  const rest = cols.slice(keys.length);
  return { keys, units: groupRuns(t, rest).map((r) => rest.slice(r.from, r.to + 1)) };
}

function split(t: LatexTable, cols: readonly number[], m: Measured, style: LatexStyle, target: number): LatexPart[] {
  const { keys, units: grouped } = keysAndUnits(t, cols);
  // A group too wide to sit beside the keys is split too (its header then over each part's share).
  const units = grouped.flatMap((u) => (u.length > 1 && partWidth(t, [...keys, ...u], m, style) > target ? u.map((j) => [j]) : [u]));
  const parts: number[][] = [];
  let current: number[] = [];
  for (const u of units) {
    if (current.length && partWidth(t, [...keys, ...current, ...u], m, style) > target) { parts.push(current); current = []; }
    current = [...current, ...u];
  }
  if (current.length || !parts.length) parts.push(current);
  return parts.map((p) => ({ columns: [...keys, ...p], width: partWidth(t, [...keys, ...p], m, style) }));
}

/** The layout of a table for a text width (pt); `measures` (latexMeasures) shared by the layouts of one table at several widths. */
export function layoutTable(t: LatexTable, target: number, measures: LatexMeasures = latexMeasures(t)): LatexLayout {
  const kept = t.columns.map((_, j) => j).filter((j) => t.rows.length === 0 || t.rows.some((r) => !emptyCell(r[j])));
  const cols = kept.length ? kept : [0];
  const laid = (style: LatexStyle, m: Measured, parts: LatexPart[]): LatexLayout =>
    ({ style, cells: m.cells, parts, long: m.lines > FLOAT_LINES, target, headers: m.headers });
  for (const style of LATEX_STYLES) {
    const m = measures.of(style);
    const width = partWidth(t, cols, m, style);
    if (width <= target) return laid(style, m, [{ columns: cols, width }]);
  }
  // none fits whole: the last (most compact) style, split into parts
  const style = LATEX_STYLES[LATEX_STYLES.length - 1];
  const m = measures.of(style);
  return laid(style, m, split(t, cols, m, style, target));
}
