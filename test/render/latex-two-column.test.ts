/**
 * `--latex-width 240`: the .tex tables laid out for a column of a two-column layout. Every table
 * the commands write on the shipped data and the Akata log (with long and hostile display names),
 * and the two built to be hard (25 columns of intervals, 90 rows), states in its header either
 * that it fits the 240 pt column or that it spans both columns (table*), and is a float, never a
 * longtable (which LaTeX cannot set in two columns): a long table is several floats. With pdflatex
 * all are compiled in a two-column article of 240 pt columns: 0 overfull boxes, 0 "Float too
 * large"; without it the layout's own width estimate is checked.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { reproduceTables } from '../../src/commands/reproduce.js';
import { MemoryLogger } from '../../src/core/logger.js';
import { intervalCell, latexTable, leftColumn, rightColumn, type LatexTable } from '../../src/render/latex.js';
import { LATEX_STYLES, latexMeasures, layoutTable } from '../../src/render/latex-layout.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { compileTables, HAS_PDFLATEX, parseLatexTable } from '../helpers/latex.js';

const texFiles = (files: readonly { path: string; content: string | Uint8Array }[]) =>
  files.filter((f) => f.path.endsWith('.tex')).map((f) => ({ f: f.path.split('/').slice(-1)[0], text: String(f.content) }));

const wide: LatexTable = {
  caption: 'Twenty-five columns.', label: 'tab:wide',
  columns: [leftColumn('Model'), leftColumn('Game'), leftColumn('Framing'),
    ...Array.from({ length: 8 }, (_, i) => rightColumn(`Statistic ${i + 1}`, i < 4 ? 'First' : 'Second'))],
  rows: Array.from({ length: 6 }, (_, r) => [`claude-3-5-sonnet-2024102${r}`, 'Prisoner\'s Delight / Harmony', 'friend-sharing',
    ...Array.from({ length: 8 }, (_, i) => intervalCell((0.1 * i).toFixed(3), '-0.123', '0.987'))]),
};
const long: LatexTable = {
  caption: 'Ninety rows.', label: 'tab:long', columns: [leftColumn('Model'), rightColumn('Value')],
  rows: Array.from({ length: 90 }, (_, r) => [`model ${r}`, intervalCell('0.500', '0.400', '0.600')]),
  sections: [{ before: 0, title: 'First' }, { before: 45, title: 'Second' }], rulesAfter: [88],
};

const FITS = /^% About (\d+) pt wide at \\(?:small|footnotesize) in a 10 pt article(?:, in \d parts)?: fits a two-column layout's column \(240 pt\)/m;
const SPANS = new RegExp(String.raw`^% About (\d+) pt wide .*: wider than a two-column layout's column \(240 pt\): laid out for a one-column article ` +
  String.raw`\(345 pt\), in a two-column document it spans both columns \(table\*\)`, 'm');

describe('--latex-width 240: tables for a two-column layout', async () => {
  const shipped = texFiles(reproduceTables({ logger: new MemoryLogger(), latexWidth: 240 }).files);
  const namesFile = join(mkdtempSync(join(tmpdir(), 'samegame-latex-two-')), 'names.csv');
  writeFileSync(namesFile, 'id,name\nact_gpt4,"GPT-4 (gpt-4-0613, temperature 0)"\nact_claude,[Claude] 2 *star* λ 中文 🙂 zero\u200bwidth\n');
  const akata = texFiles((await analyze({ trials: [join(ROOT, 'data/akata-2023/experiment_pd.csv')], format: 'akata', out: '/tmp/never-written',
    dryRun: true, figures: false, reps: 100, namesFile, latexWidth: 240 })).files);
  const all = [...shipped, ...akata, { f: 'wide.tex', text: latexTable(wide, { width: 240 }) }, { f: 'long.tex', text: latexTable(long, { width: 240 }) }];

  it('each table fits the 240 pt column or states that it spans both columns; the narrow ones are those that fit', () => {
    const fits = all.filter((x) => FITS.test(x.text));
    const spans = all.filter((x) => SPANS.test(x.text));
    expect(fits.length + spans.length).toBe(all.length);
    for (const { f, text } of fits) expect(Number(FITS.exec(text)![1]), f).toBeLessThanOrEqual(240);
    for (const { f, text } of spans) expect(Number(SPANS.exec(text)![1]), f).toBeLessThanOrEqual(345);
    expect(fits.map((x) => x.f)).toEqual(['table3.tex', 'long.tex']);
    // Laid out for 345 pt, table3.tex is wider than a column, and is laid out narrower at 240.
    const at345 = texFiles(reproduceTables({ logger: new MemoryLogger() }).files).find((x) => x.f === 'table3.tex')!.text;
    expect(at345).not.toEqual(shipped.find((x) => x.f === 'table3.tex')!.text);
  });

  it('no longtable: a long table is floats of at most 36 lines, each with a caption and its own label; the rows all kept, in order', () => {
    for (const { f, text } of all) {
      expect(text, f).not.toContain('\\begin{longtable}');
      expect(parseLatexTable(text).label, f).toMatch(/^tab:/);
    }
    const text = all.find((x) => x.f === 'long.tex')!.text;
    const floats = text.split('\\begin{table}').slice(1).map((p) => `\\begin{table}${p}`);
    expect(floats).toHaveLength(3); // 90 rows and 2 section headings, 36 lines a float
    expect(floats.map((p) => /\\label\{([^}]*)\}/.exec(p)![1])).toEqual(['tab:long', 'tab:long-2', 'tab:long-3']);
    expect(floats.map((p) => /\\caption\{(.*)\}/.exec(p)![1])).toEqual(['Ninety rows. (1 of 3)', 'Ninety rows. (2 of 3)', 'Ninety rows. (3 of 3)']);
    const rows = floats.flatMap((p) => parseLatexTable(p).rows.map((r) => r[0]));
    expect(rows).toEqual(Array.from({ length: 90 }, (_, r) => `model ${r}`));
    expect(floats.flatMap((p) => parseLatexTable(p).sections)).toEqual(['First', 'Second']);
    expect(text).toMatch(/in 3 floats of at most 36 lines/);
  });

  it('the CLI takes --latex-width and refuses a width it cannot lay out for in one line', async () => {
    const out = mkdtempSync(join(tmpdir(), 'samegame-latex-cli-'));
    const ok = await runCli(['reproduce', '--out', out, '-q', '--latex-width', '240']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(join(out, 'reports', 'table3.tex'), 'utf8')).toMatch(FITS);
    const bad = await runCli(['reproduce', '--out', out, '-q', '--latex-width', '20']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('--latex-width: "20" is not a text width in points from 100 to 1000');
  }, 120_000);

  it.skipIf(!HAS_PDFLATEX)('pdflatex: in a two-column article of 240 pt columns, 0 overfull boxes and 0 "Float too large"', () => {
    const two = compileTables(all.map((x) => x.text), 'two-column');
    expect(two.ok, two.log).toBe(true);
    expect(two.overfull).toEqual([]);
  }, 120_000);
});

describe('one measure of a table serves every width it is laid out for', () => {
  it('the 25-column table, laid out for 240 pt (in parts) and again for 345 pt, is measured once per style; its cells as the writer sets them', () => {
    const measures = latexMeasures(wide);
    const column = layoutTable(wide, 240, measures);
    expect(column.parts.length).toBeGreaterThan(1);
    expect(measures.measured()).toBe(LATEX_STYLES.length); // no style fits 240 pt whole: each was tried
    const article = layoutTable(wide, 345, measures);
    expect(measures.measured()).toBe(LATEX_STYLES.length); // and none measured again
    expect(article.cells).toHaveLength(wide.rows.length);
    expect(article.cells[0][4]).toEqual(article.style.stacked ? ['0.100', '{}[$-$0.123, 0.987]'] : ['0.100 [$-$0.123, 0.987]']);
  });
});

describe.skipIf(HAS_PDFLATEX)('without pdflatex', () => {
  it('the compile check above is skipped: pdflatex is not installed here (the width estimate is still checked)', () => expect(HAS_PDFLATEX).toBe(false));
});
