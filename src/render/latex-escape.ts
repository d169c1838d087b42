/**
 * Text as LaTeX typesets it literally, under pdflatex with a T1 font encoding and UTF-8 input
 * (the stated preamble of every .tex samegame writes): & % $ # _ { } ~ ^ \ escaped, ligatures
 * broken, samegame's own symbols spelled, Greek letters as math symbols, invisible format
 * characters as what they do (a zero-width space a break point, a joiner nothing), Latin letters
 * with accents as they are (T1 and UTF-8 input set them), and every other character — CJK, emoji,
 * control characters — as \samegameU{<hex code point>}, which the file defines to print
 * "[U+4E2D]" unless the document defines it first (under xelatex or lualatex:
 * \newcommand\samegameU[1]{\symbol{"#1}} with a font that has the characters).
 */

const SPECIAL: Readonly<Record<string, string>> = {
  '\\': '\\textbackslash{}', '&': '\\&', '%': '\\%', $: '\\$', '#': '\\#', _: '\\_', '{': '\\{', '}': '\\}',
  '~': '\\textasciitilde{}', '^': '\\textasciicircum{}',
  // Characters samegame's own text uses that pdflatex's default input encoding does not map.
  '\u2264': '$\\le$', '\u2265': '$\\ge$', '\u2212': '$-$', '\u00d7': '$\\times$', '\u00b1': '$\\pm$', '\u2014': '---', '\u2013': '--',
  '\u00a0': '~', '\u2009': '\\,', '\u202f': '\\,', '\u03bb\u0302': '$\\hat\\lambda$', '\u00f7': '$\\div$',
  '\u2018': '`', '\u2019': '\'', '\u201c': '``', '\u201d': '\'\'', '\u2026': '\\ldots{}', '\u2022': '\\textbullet{}',
  '\u200b': '\\hspace{0pt}', '\u200c': '{}', '\u200d': '{}', '\u2060': '{}', '\ufeff': '{}',
};

const GREEK_LOWER = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'o',
  'pi', 'rho', 'varsigma', 'sigma', 'tau', 'upsilon', 'phi', 'chi', 'psi', 'omega'];
const GREEK_UPPER = ['A', 'B', '\\Gamma', '\\Delta', 'E', 'Z', 'H', '\\Theta', 'I', 'K', '\\Lambda', 'M', 'N', '\\Xi', 'O', '\\Pi', 'P', '',
  '\\Sigma', 'T', '\\Upsilon', '\\Phi', 'X', '\\Psi', '\\Omega'];

/** A Greek letter (U+0391–U+03A9, U+03B1–U+03C9) as a math symbol; undefined for other characters. */
function greek(c: string): string | undefined {
  const code = c.codePointAt(0)!;
  if (code >= 0x3b1 && code <= 0x3c9) {
    const name = GREEK_LOWER[code - 0x3b1];
    return name === 'o' ? '\\ensuremath{o}' : `\\ensuremath{\\${name}}`;
  }
  if (code >= 0x391 && code <= 0x3a9 && GREEK_UPPER[code - 0x391]) {
    const u = GREEK_UPPER[code - 0x391];
    return u.startsWith('\\') ? `\\ensuremath{${u}}` : `\\ensuremath{\\mathrm{${u}}}`;
  }
  return undefined;
}

/**
 * Non-ASCII characters pdflatex sets from UTF-8 input with T1 (and the kernel's text companion
 * symbols): Latin-1's letters and symbols and Latin Extended-A (checked by compiling each, test/render/latex-unicode.test.ts).
 */
const TEXT_RANGE = /[\u00a1-\u017f]/u;
/** Of those, the ones pdflatex has no T1 glyph for (Ħ ħ ĸ Ŀ ŀ ŉ Ŧ ŧ ſ: "Unicode character … not set up for use with LaTeX"). */
const NOT_T1 = /[\u0126\u0127\u0138\u013f\u0140\u0149\u0166\u0167\u017f]/u;
/** Other space characters: set as an interword space. */
const SPACES = /[\u2000-\u2008\u200a\u205f\u3000]/u;
/** Variation selectors: they choose a glyph's presentation, nothing pdflatex sets. */
const SELECTORS = /[\ufe00-\ufe0f]/u;

/** \samegameU{4E2D}: a character pdflatex cannot set, by its code point. */
export const unicodePlaceholder = (c: string): string => `\\samegameU{${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`;

/** The definition every table file carries (kept when the document defines \samegameU first). */
export const UNICODE_DEFINITION = '\\providecommand{\\samegameU}[1]{\\texttt{[U+#1]}}';

function nonAscii(c: string): string {
  if (SPECIAL[c] !== undefined) return SPECIAL[c];
  const g = greek(c);
  if (g !== undefined) return g;
  if (TEXT_RANGE.test(c) && !NOT_T1.test(c)) return c;
  if (SPACES.test(c)) return '\\ ';
  if (SELECTORS.test(c)) return '';
  return unicodePlaceholder(c);
}

// The specials, a character T1 would join with the next into a ligature (-- '' `` << >> ,, ?` !`), which gets {} after it,
// and every character outside printable ASCII (control characters and non-ASCII, a code point at a time).
const SPECIALS = /\u03bb\u0302|[\\&%$#_{}~^]|([-'`<>,])(?=\1)|[!?](?=`)|[^\x20-\x7e]/gu;

/**
 * Text as LaTeX typesets it literally (see the file's comment); a single ' or ` stays a
 * typographic quote. The result starts with {} when the text starts with [ or *, which LaTeX
 * would otherwise read after a row end (\\[…], \\*) or a rule (\midrule[…]) as an option.
 */
export function latexEscape(text: string): string {
  const body = text.replace(SPECIALS, (c: string) => {
    if (c.length === 1 && c >= ' ' && c <= '~') return SPECIAL[c] ?? `${c}{}`;
    return nonAscii(c);
  });
  return /^[[*]/.test(body) ? `{}${body}` : body;
}

/** Whether escaped text holds a character pdflatex cannot set (written \samegameU{…}). */
export const hasPlaceholder = (tex: string): boolean => tex.includes('\\samegameU{');
