/**
 * The width in pt of escaped LaTeX text as pdflatex sets it in a 10 pt article with T1 Latin
 * Modern / EC fonts: \small (9 pt) and \footnotesize (8 pt). The character widths are pdflatex's
 * own, measured by test/reference/latex-widths/measure.py (its numbers, widths.json, are checked
 * against LATEX_METRICS by test/render/latex-width.test.ts); kerning is ignored, a few tenths of a
 * pt per cell. Math, accents and placeholders are estimated from above.
 */
import { LATEX_METRICS, type LatexSize } from './latex-metrics.js';

export type { LatexSize } from './latex-metrics.js';

const charWidth = (m: (typeof LATEX_METRICS)[LatexSize], c: string): number => {
  const code = c.charCodeAt(0);
  if (code >= 32 && code <= 126) return m.ascii[code - 32];
  const base = c.normalize('NFD').charCodeAt(0);
  return base >= 32 && base <= 126 ? m.ascii[base - 32] : m.em;
};

// One token of escaped text: a placeholder, math, a text symbol macro, a zero-width group, an escaped special,
// a thin or interword space, dashes, a tie, or one character.
const TOKENS = new RegExp(String.raw`\\samegameU\{([0-9A-F]+)\}|\\ensuremath\{((?:[^{}]|\{[^{}]*\})*)\}|` +
  String.raw`\$([^$]*)\$|\\text[a-z]+\{\}|\\ldots\{\}|\\hspace\{0pt\}|\{\}|\\([&%$#_{}])|\\,|\\ |---|--|~|[^]`, 'gu');

/** Width in pt of one line of escaped LaTeX text at a size. */
export function latexTextWidth(tex: string, size: LatexSize): number {
  const m = LATEX_METRICS[size];
  let w = 0;
  for (const t of tex.matchAll(TOKENS)) {
    const [all, hex, ensure, math, special] = t;
    if (hex !== undefined) w += m.tt * (hex.length + 4);
    else if (ensure !== undefined || math !== undefined) w += mathWidth(m, ensure ?? math ?? '');
    else if (special !== undefined) w += charWidth(m, special);
    else if (all === '{}' || all === '\\hspace{0pt}') continue;
    else if (all === '\\,') w += m.em / 6;
    else if (all === '\\ ' || all === '~') w += charWidth(m, ' ');
    else if (all === '---') w += m.em;
    else if (all === '--') w += m.em / 2;
    else if (all === '\\ldots{}') w += 3 * charWidth(m, '.') + m.em / 2;
    else if (all.startsWith('\\text')) w += charWidth(m, 'm');
    else w += charWidth(m, all);
  }
  return w;
}

/** Math: a minus as wide as a plus sign with its spacing, any other atom (a macro or a letter) as wide as an 'm'. */
function mathWidth(m: (typeof LATEX_METRICS)[LatexSize], math: string): number {
  const atoms = math.match(/\\[A-Za-z]+|[A-Za-z0-9-]/g) ?? [];
  return atoms.reduce((s, a) => s + (a === '-' ? m.minus : a === '\\mathrm' || a === '\\hat' ? 0 : charWidth(m, 'm')), 0);
}
