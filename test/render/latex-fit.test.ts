/**
 * Every .tex the commands write fits a one-column 10 pt article (345 pt) at \small or smaller:
 * the shipped reproduction (table2, table3, reproduction), the quickstart's committed golden
 * tables (table2, table3, family-robustness), the Akata log's repeated-play tables (models, cells,
 * reactions, endgame; with long and hostile display names) and two built to be hard (25 columns
 * of intervals, 90 rows). Without pdflatex the layout's own width estimate (pdflatex's character
 * widths, latex-metrics.ts) is checked against 345 pt; with pdflatex every file is compiled in a
 * one-column article (0 overfull boxes, 0 "Float too large") and the tables that state they fit a
 * 240 pt column are compiled in a two-column article of 240 pt columns (0 overfull boxes).
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { reproduceTables } from '../../src/commands/reproduce.js';
import { MemoryLogger } from '../../src/core/logger.js';
import { intervalCell, latexTable, leftColumn, rightColumn } from '../../src/render/latex.js';
import { ROOT } from '../helpers/cli.js';
import { compileTables, HAS_PDFLATEX, parseLatexTable } from '../helpers/latex.js';

const texFiles = (files: readonly { path: string; content: string | Uint8Array }[]) =>
  files.filter((f) => f.path.endsWith('.tex')).map((f) => ({ f: f.path.split('/').slice(-1)[0], text: String(f.content) }));

const hard = [
  // 8 statistics with intervals over 3 keys: 25 columns before the intervals were compact.
  latexTable({
    caption: 'Twenty-five columns.', label: 'tab:wide',
    columns: [leftColumn('Model'), leftColumn('Game'), leftColumn('Framing'), ...Array.from({ length: 8 }, (_, i) => rightColumn(`Statistic ${i + 1}`, i < 4 ? 'First' : 'Second'))],
    rows: Array.from({ length: 6 }, (_, r) => [`claude-3-5-sonnet-2024102${r}`, 'Prisoner\'s Delight / Harmony', 'friend-sharing',
      ...Array.from({ length: 8 }, (_, i) => intervalCell((0.1 * i).toFixed(3), '-0.123', '0.987'))]),
  }),
  // 90 rows: a longtable, never one float.
  latexTable({
    caption: 'Ninety rows.', label: 'tab:long',
    columns: [leftColumn('Model'), rightColumn('Value'), rightColumn('Empty')],
    rows: Array.from({ length: 90 }, (_, r) => [`model ${r}`, intervalCell('0.500', '0.400', '0.600'), '']),
  }),
];

describe('every .tex fits a one-column article', async () => {
  const shipped = texFiles(reproduceTables({ logger: new MemoryLogger() }).files);
  const golden = readdirSync(join(ROOT, 'test/golden/quickstart/reports')).filter((f) => f.endsWith('.tex'))
    .map((f) => ({ f, text: readFileSync(join(ROOT, 'test/golden/quickstart/reports', f), 'utf8') }));
  const namesFile = join(mkdtempSync(join(tmpdir(), 'samegame-latex-fit-')), 'names.csv');
  writeFileSync(namesFile, 'id,name\nact_gpt4,"GPT-4 (gpt-4-0613, temperature 0)"\nact_claude,[Claude] 2 *star* λ 中文 🙂 zero\u200bwidth\n');
  const akata = texFiles((await analyze({ trials: [join(ROOT, 'data/akata-2023/experiment_pd.csv')], format: 'akata', out: '/tmp/never-written',
    dryRun: true, figures: false, reps: 100, namesFile })).files);
  const all = [...shipped, ...golden, ...akata, ...hard.map((text, i) => ({ f: `hard-${i}.tex`, text }))];

  it('the files tried: the reproduction, the quickstart\'s, the Akata log\'s and the hard ones', () => {
    expect(all.map((x) => x.f)).toEqual(['table2.tex', 'table3.tex', 'reproduction.tex', 'family-robustness.tex', 'table2.tex', 'table3.tex',
      'models.tex', 'cells.tex', 'reactions.tex', 'endgame.tex', 'hard-0.tex', 'hard-1.tex']);
  });

  it('each states its width, within 345 pt by pdflatex\'s character widths, has a caption and a label, and no number past five decimals', () => {
    for (const { f, text } of all) {
      const about = /^% About (\d+) pt wide at \\(small|footnotesize) in a 10 pt article(?:, in (\d) parts)?: fits a one-column article \(345 pt\)/m.exec(text);
      expect(about, f).not.toBeNull();
      expect(Number(about![1]), f).toBeLessThanOrEqual(345);
      const t = parseLatexTable(text);
      expect(t.caption.length, f).toBeGreaterThan(0);
      expect(t.label, f).toMatch(/^tab:/);
      expect(text, f).not.toMatch(/\d\.\d{6,}/);
    }
    expect(parseLatexTable(hard[1]).long).toBe(true);
    expect(parseLatexTable(hard[1]).header).toEqual(['Model', 'Value']); // the empty column dropped
    expect(parseLatexTable(akata.find((x) => x.f === 'reproduction.tex')?.text ?? shipped[2].text).long).toBe(true);
  });

  it.skipIf(!HAS_PDFLATEX)('pdflatex: 0 overfull boxes and 0 "Float too large" at 345 pt; the tables that state they fit 240 pt do so in two columns', () => {
    const one = compileTables(all.map((x) => x.text));
    expect(one.ok, one.log).toBe(true);
    expect(one.overfull).toEqual([]);
    const narrow = all.filter((x) => /two-column layout's column \(240 pt\)/.test(x.text));
    expect(narrow.map((x) => x.f)).toEqual(['table3.tex', 'family-robustness.tex', 'table3.tex']);
    const spanning = all.filter((x) => /spans both columns \(table\*\)/.test(x.text));
    const two = compileTables([...narrow, ...spanning].map((x) => x.text), 'two-column');
    expect(two.ok, two.log).toBe(true);
    expect(two.overfull).toEqual([]);
  }, 120_000);
});

describe.skipIf(HAS_PDFLATEX)('without pdflatex', () => {
  it('the compile checks above are skipped: pdflatex is not installed here (the width estimate is still checked)', () => expect(HAS_PDFLATEX).toBe(false));
});
