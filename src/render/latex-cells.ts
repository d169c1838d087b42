/** The cells and columns of a LaTeX table (latex.ts) and each cell's LaTeX text. */
import { latexEscape } from './latex-escape.js';

/**
 * A cell: text (escaped), a number's text as given, a bare number (integers whole, others at
 * four significant digits; NaN empty), or a point with its interval, each as text ('' for none).
 */
export type LatexCell = string | number | { readonly number: string } | { readonly interval: readonly [string, string, string] };

export interface LatexColumn {
  readonly header: string;
  readonly align: 'l' | 'r' | 'c';
  /** A header over this column and its neighbours of the same group, with a \cmidrule under it. */
  readonly group?: string;
}

/** A column of a LaTeX table with its header: text aligned left, numbers right. */
export const leftColumn = (header: string, group?: string): LatexColumn => ({ header, align: 'l', ...(group === undefined ? {} : { group }) });
export const rightColumn = (header: string, group?: string): LatexColumn => ({ header, align: 'r', ...(group === undefined ? {} : { group }) });

/** A point with its interval ("0.651 [0.639, 0.661]"), each a number's text. */
export const intervalCell = (point: string, lo: string, hi: string): LatexCell => ({ interval: [point, lo, hi] });

export interface LatexTable {
  readonly caption: string;
  /** \label{…}: letters, digits, ':' and '-' (e.g. "tab:table3"). */
  readonly label: string;
  readonly columns: readonly LatexColumn[];
  readonly rows: readonly (readonly LatexCell[])[];
  /** Rows after which a \midrule is drawn (e.g. before a Pooled row), 0-based. */
  readonly rulesAfter?: readonly number[];
  /** A note under the table (escaped). */
  readonly note?: string;
  /** Headings set across the table before a row (0-based), e.g. the published table the rows below come from. */
  readonly sections?: readonly { readonly before: number; readonly title: string }[];
}

/** A one-column article's text width (10 pt article class), in pt. */
export const ONE_COLUMN_PT = 345;
/** The widest column of the two-column layouts the tables are checked at, in pt. */
export const TWO_COLUMN_PT = 240;

/** A number's text, a leading minus typeset as a minus sign. */
export function latexNumber(text: string): string {
  return text.startsWith('-') ? `$-$${text.slice(1)}` : text;
}

/** A bare number's LaTeX: an integer whole, another at four significant digits (never the files' twelve), tiny or huge ones as m × 10^e. */
function bareNumber(x: number): string {
  if (!Number.isFinite(x)) return '';
  if (Number.isInteger(x) && Math.abs(x) < 1e21) return latexNumber(String(x));
  const s = String(Number(x.toPrecision(4)));
  const e = /^(-?[\d.]+)e([+-]\d+)$/.exec(s);
  return e ? `${latexNumber(e[1])}$\\times10^{${Number(e[2])}}$` : latexNumber(s);
}

/**
 * Text in lines of at most `wrap` pt at its spaces, and a word wider than that also after its
 * - and / (a word without those is never broken), each line escaped; `width` measures escaped text.
 */
export function wrapText(text: string, wrap: number, width: (tex: string) => number): string[] {
  const pieces = text.split(' ').flatMap((word, i) => {
    const parts = width(latexEscape(word)) > wrap ? word.split(/(?<=[-/])/) : [word];
    return parts.map((p, k) => ({ p, space: i > 0 && k === 0 }));
  });
  const lines: string[] = [];
  for (const { p, space } of pieces) {
    const joined = lines.length ? `${lines[lines.length - 1]}${space ? ' ' : ''}${p}` : '';
    if (lines.length && width(latexEscape(joined)) <= wrap) lines[lines.length - 1] = joined;
    else lines.push(p);
  }
  return lines.map(latexEscape);
}

/**
 * A cell's LaTeX: one line, or several when stacked (an interval set under its point) or when
 * text wider than `wrap` pt is set in lines.
 */
export function cellLines(c: LatexCell, stacked = false, wrap?: { at: number; width: (tex: string) => number }): string[] {
  if (typeof c === 'number') return [bareNumber(c)];
  if (typeof c === 'string') return wrap && wrap.width(latexEscape(c)) > wrap.at ? wrapText(c, wrap.at, wrap.width) : [latexEscape(c)];
  if ('number' in c) return [latexNumber(c.number)];
  const [p, lo, hi] = c.interval;
  if (lo === '' && hi === '') return [latexNumber(p)];
  const range = `[${latexNumber(lo)}, ${latexNumber(hi)}]`;
  if (p === '') return [`{}${range}`];
  return stacked ? [latexNumber(p), `{}${range}`] : [`${latexNumber(p)} ${range}`];
}

/** Whether a cell holds nothing to print. */
export const emptyCell = (c: LatexCell): boolean => cellLines(c).every((l) => l === '');
