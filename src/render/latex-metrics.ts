/** pdflatex's widths (pt) of T1 text in a 10 pt article, measured by test/reference/latex-widths/measure.py (widths.json). */
export type LatexSize = 'small' | 'footnotesize';

export interface LatexFontMetrics {
  /** Printable ASCII, U+0020 to U+007E. */
  readonly ascii: readonly number[];
  /** A typewriter character. */
  readonly tt: number;
  /** The quad. */
  readonly em: number;
  /** A math minus with its spacing. */
  readonly minus: number;
}

const CMR10 = [3.33, 2.78, 5, 8.33, 5, 8.33, 7.78, 2.78, 3.89, 3.89, 5, 7.78, 2.78, 3.33, 2.78, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 2.78, 2.78, 2.78, 7.78, 4.72, 4.72,
  7.78, 7.5, 7.08, 7.22, 7.64, 6.81, 6.53, 7.85, 7.5, 3.61, 5.14, 7.78, 6.25, 9.17, 7.5, 7.78, 6.81, 7.78, 7.36, 5.56, 7.22, 7.5, 7.5, 10.28, 7.5, 7.5, 6.11, 2.78, 5, 2.78, 5, 5,
  2.78, 5, 5.56, 4.44, 5.56, 4.44, 3.06, 5, 5.56, 2.78, 3.06, 5.28, 2.78, 8.33, 5.56, 5, 5.56, 5.28, 3.92, 3.94, 3.89, 5.56, 5.28, 7.22, 5.28, 5.28, 4.44, 5, 5, 5, 5];

export const LATEX_METRICS: Readonly<Record<LatexSize, LatexFontMetrics>> = {
  small: { ascii: CMR10.map((w) => w * 0.92), tt: 4.73, em: 9.2, minus: 7.2 },
  footnotesize: { ascii: CMR10.map((w) => w * 0.83), tt: 4.2, em: 8.3, minus: 6.4 },
};
