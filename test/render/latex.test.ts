import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latexEscape, latexTable } from '../../src/render/latex.js';
import { compileTables, HAS_PDFLATEX, parseLatexTable } from '../helpers/latex.js';

const HOSTILE = 'R&D_50%_{x}';

describe('LaTeX tables (render/latex.ts)', () => {
  it('escapes each of & % _ # $ { } ~ ^ \\ (the expected text written by hand)', () => {
    expect(latexEscape(HOSTILE)).toBe('R\\&D\\_50\\%\\_\\{x\\}');
    expect(latexEscape('#$~^\\')).toBe('\\#\\$\\textasciitilde{}\\textasciicircum{}\\textbackslash{}');
    expect(latexEscape('95 % ≤ 1 − x × 2 — λ̂')).toBe('95 \\% $\\le$ 1 $-$ x $\\times$ 2 --- $\\hat\\lambda$');
  });

  it('leaves no special character unescaped in any text (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary-ascii' }), (s) => {
      const e = latexEscape(s).replace(/^\{\}|\\samegameU\{[0-9A-F]{4,6}\}|\\text[a-z]+\{\}|\\[&%$#_{}]|\$\\[a-z]+(?:\\[a-z]+)?\$|\$-\$|(?<=[-'`<>,!?])\{\}/g, '');
      expect(e).not.toMatch(/[\\&%$#_{}~^]/);
    }), { numRuns: 500 });
  });

  const table = latexTable({
    caption: `Cooperation of ${HOSTILE}`, label: 'tab:hostile',
    columns: [{ header: 'Model', align: 'l' }, { header: 'Rate', align: 'r' }, { header: 'Shift', align: 'r' }],
    rows: [[HOSTILE, 0.7 - 0.4, -0.32999999999999996], ['plain', 7.000000000000001, NaN]],
    rulesAfter: [0],
  });

  it('writes booktabs rules, a caption and a label, every row as wide as the header, bare numbers at four significant digits', () => {
    const t = parseLatexTable(table);
    expect(t).toMatchObject({ label: 'tab:hostile', columns: 3, header: ['Model', 'Rate', 'Shift'] });
    expect(t.rows).toEqual([['R\\&D\\_50\\%\\_\\{x\\}', '0.3', '$-$0.33'], ['plain', '7', '']]);
    // Never the files' 12 significant digits: 2/3 at four.
    expect(parseLatexTable(latexTable({ caption: 'c', label: 'tab:d', columns: [{ header: 'x', align: 'r' }], rows: [[2 / 3], [-1 / 7000], [1.23456e-9]] })).rows)
      .toEqual([['0.6667'], ['$-$0.0001429'], ['1.235$\\times10^{-9}$']]);
    expect(table).toContain('\\midrule\nplain'); // the rule after row 0
  });

  it('refuses a row of the wrong width and a label LaTeX would not take', () => {
    expect(() => latexTable({ caption: 'c', label: 'tab:x', columns: [{ header: 'a', align: 'l' }], rows: [['a', 'b']] })).toThrow(/2 cells in a table of 1/);
    expect(() => latexTable({ caption: 'c', label: 'tab x_1', columns: [], rows: [] })).toThrow(/label/);
  });

  it.skipIf(!HAS_PDFLATEX)('compiles with pdflatex, and the hostile name prints as written', () => {
    const r = compileTables([table]);
    expect(r.ok, r.log).toBe(true);
    // The PDF's text strings (a TJ holds a line; spaces are kerns, not characters): the name, character for character.
    expect(r.text.filter((s) => s.includes(HOSTILE)).length).toBeGreaterThanOrEqual(2); // caption and cell
    expect(r.text.join('')).toContain('0.33');
  });

  it.skipIf(!HAS_PDFLATEX)('every printable ASCII character prints as written (no ligature: -- \'\' `` << >> ,,)', () => {
    const all = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
    const names = [all, 'A--B', "it''s", '``q``', '<<x>>', ',,y'];
    const t = latexTable({ caption: 'c', label: 'tab:ascii', columns: [{ header: 'Name', align: 'l' }], rows: names.map((n) => [n]) });
    const r = compileTables([t]);
    expect(r.ok, r.log).toBe(true);
    // The PDF's strings in page order (a quote from the companion font is a string of its own; spaces
    // are kerns, not characters): each name, without its spaces, is a run of the text.
    const printed = r.text.join('').replace(/ /g, '');
    for (const n of names) expect(printed, n).toContain(n.replace(/ /g, ''));
  });
});
