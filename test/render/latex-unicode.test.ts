/**
 * LaTeX escaping correct by construction: a name that starts with [ or * after a row end (\\) or
 * a rule (\midrule), Greek, CJK, emoji, a zero-width space and every Latin-1 / Latin Extended-A
 * character. The expected LaTeX is written by hand; with pdflatex the tables compile and the
 * names print (CJK and emoji as [U+…], the placeholder the file defines). The width metrics are
 * pdflatex's own (test/reference/latex-widths/widths.json, measured by measure.py there).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latexEscape, latexTable } from '../../src/render/latex.js';
import { LATEX_METRICS } from '../../src/render/latex-metrics.js';
import { latexTextWidth } from '../../src/render/latex-width.js';
import { compileTables, HAS_PDFLATEX, parseLatexTable } from '../helpers/latex.js';

const NAMES = ['[x] name', '*GPTstar', 'αβγ Ω', 'café Łódź', '中文', 'ok 🙂', 'zero\u200bwidth'];

const table = latexTable({
  caption: `Names: ${NAMES.join(', ')}.`, label: 'tab:unicode',
  columns: [{ header: 'Name', align: 'l' }, { header: 'n', align: 'r' }],
  rows: NAMES.map((n, i) => [n, i]),
  rulesAfter: [0, 2, 4],
});

describe('LaTeX escaping of names (render/latex-escape.ts)', () => {
  it('protects a [ or * at a cell\'s start; Greek as math; CJK and emoji by code point; a zero-width space as a break point', () => {
    expect(latexEscape('[x] name')).toBe('{}[x] name');
    expect(latexEscape('*GPTstar')).toBe('{}*GPTstar');
    expect(latexEscape('a[b*')).toBe('a[b*');
    expect(latexEscape('αβγ Ω')).toBe('\\ensuremath{\\alpha}\\ensuremath{\\beta}\\ensuremath{\\gamma} \\ensuremath{\\Omega}');
    expect(latexEscape('café Łódź')).toBe('café Łódź');
    expect(latexEscape('中文')).toBe('\\samegameU{4E2D}\\samegameU{6587}');
    expect(latexEscape('ok 🙂\ufe0f')).toBe('ok \\samegameU{1F642}');
    expect(latexEscape('zero\u200bwidth')).toBe('zero\\hspace{0pt}width');
    expect(latexEscape('a\u001bb')).toBe('a\\samegameU{001B}b');
    const t = parseLatexTable(table);
    expect(t.rows.map((r) => r[0])).toEqual(NAMES.map(latexEscape).map((x) => x.replace(/^\{\}/, '')));
    expect(table).toContain('\\providecommand{\\samegameU}[1]{\\texttt{[U+#1]}}');
    expect(table).toContain('\\midrule\n{}*GPTstar & 1 \\\\');
  });

  it('leaves nothing but printable ASCII and the Latin letters T1 sets in any text (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (s) => {
      expect(latexEscape(s)).toMatch(/^[\x20-\x7e\u00a1-\u017f]*$/u);
      expect(latexEscape(s)).not.toMatch(/^[[*]/);
    }), { numRuns: 500 });
  });

  it('the width metrics are pdflatex\'s, as measured by the reference script', () => {
    const ref = JSON.parse(readFileSync(join(__dirname, '../reference/latex-widths/widths.json'), 'utf8')) as typeof LATEX_METRICS;
    expect(LATEX_METRICS).toEqual(ref);
    // "GPT-3.5" at \small: G + P + T + - + 3 + . + 5, summed by hand from widths.json.
    const w = (c: string) => ref.small.ascii[c.charCodeAt(0) - 32];
    expect(latexTextWidth('GPT-3.5', 'small')).toBeCloseTo([...'GPT-3.5'].reduce((s, c) => s + w(c), 0), 9);
  });

  it.skipIf(!HAS_PDFLATEX)('compiles with pdflatex; [x] and *GPTstar print whole (caption and cell), CJK and emoji as their code points', () => {
    const r = compileTables([table]);
    expect(r.ok, r.log).toBe(true);
    expect(r.overfull).toEqual([]);
    const text = r.text.join('').replace(/ /g, '');
    expect(text.split('*GPTstar').length - 1).toBe(2);
    expect(text.split('[x]name').length - 1).toBe(2);
    expect(text).toContain('[U+4E2D][U+6587]');
    expect(text).toContain('[U+1F642]');
  }, 60_000);

  it.skipIf(!HAS_PDFLATEX)('every character of U+00A1 to U+017F compiles under pdflatex (nine of them as their code points)', () => {
    expect(latexEscape('ĦħĸĿŀŉŦŧſ')).toBe(['0126', '0127', '0138', '013F', '0140', '0149', '0166', '0167', '017F'].map((h) => `\\samegameU{${h}}`).join(''));
    const chars = Array.from({ length: 0x17f - 0xa1 + 1 }, (_, i) => String.fromCodePoint(0xa1 + i));
    const rows = Array.from({ length: Math.ceil(chars.length / 16) }, (_, i) => [chars.slice(16 * i, 16 * i + 16).join(' ')]);
    const r = compileTables([latexTable({ caption: 'Latin', label: 'tab:latin', columns: [{ header: 'c', align: 'l' }], rows })]);
    expect(r.ok, r.log).toBe(true);
  }, 60_000);
});
