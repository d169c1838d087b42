/**
 * The .tex of the inputs latex-fit.test.ts and latex-two-column.test.ts do not cover: the repeated
 * starter (`init --kind repeated`), the meta example (data/meta/lore-heydari.yaml) and a simulated
 * context-enrichment run (`init --kind enrichment`: reports/selective.tex). Each fits a one-column
 * article (345 pt) by its own width estimate (pdflatex's character widths), with a caption and a
 * label; with `--latex-width 240` the starter's and the enrichment run's tables fit the column or
 * say they span both; with pdflatex every one compiles at 345 pt and at 240 pt with 0 overfull
 * boxes and 0 "Float too large". The regenerate command each command records names
 * `--latex-width` when it was given, and the CLI takes it on an enrichment store.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { reproduceTables } from '../../src/commands/reproduce.js';
import { runMeta } from '../../src/commands/meta.js';
import { MemoryLogger } from '../../src/core/logger.js';
import type { SelectiveAnalysis } from '../../src/analyses/selective/index.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { compileTables, HAS_PDFLATEX, parseLatexTable } from '../helpers/latex.js';

type Files = readonly { path: string; content: string | Uint8Array }[];
const texFiles = (files: Files) => files.filter((f) => f.path.endsWith('.tex')).map((f) => ({ f: f.path.split('/').slice(-1)[0], text: String(f.content) }));
const fileText = (files: Files, name: string) => String(files.find((f) => f.path.endsWith(`/${name}`))!.content);

const ONE = /^% About (\d+) pt wide at \\(?:small|footnotesize) in a 10 pt article(?:, in \d parts)?: fits a one-column article \(345 pt\)/m;
const FITS = /^% About (\d+) pt wide at \\(?:small|footnotesize) in a 10 pt article(?:, in \d parts)?: fits a two-column layout's column \(240 pt\)/m;
const SPANS = /^% About (\d+) pt wide .*: wider than a two-column layout's column \(240 pt\): laid out for a one-column article \(345 pt\)/m;

describe('the .tex of the repeated starter, the meta example and an enrichment run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-latex-commands-'));
  for (const args of [['init', 'rep', '--kind', 'repeated'], ['run', 'rep.yaml', '-q'], ['init', 'enr', '--kind', 'enrichment'], ['run', 'enr.yaml', '-q']]) {
    const r = await runCli(args, { cwd: dir });
    if (r.code !== 0) throw new Error(r.stderr);
  }
  const quiet = { dryRun: true, figures: false, reps: 100, logger: new MemoryLogger() } as const;
  const starter = (width?: number) => analyze({ store: join(dir, 'runs/rep.sqlite'), ...quiet, ...(width ? { latexWidth: width } : {}) });
  const enrichment = (width?: number) => analyze({ store: join(dir, 'runs/enr.sqlite'), ...quiet, ...(width ? { latexWidth: width } : {}) });
  const [rep345, rep240, enr345, enr240] = await Promise.all([starter(), starter(240), enrichment(), enrichment(240)]);
  const meta = runMeta({ manifest: join(ROOT, 'data/meta/lore-heydari.yaml'), logger: new MemoryLogger() });
  const one = [...texFiles(rep345.files), ...texFiles(meta.files), ...texFiles(enr345.files)];
  const two = [...texFiles(rep240.files), ...texFiles(enr240.files)];

  it('the files tried: every .tex each command writes on these inputs', () => {
    expect(one.map((x) => x.f)).toEqual(['models.tex', 'cells.tex', 'reactions.tex', 'endgame.tex', 'table2.tex', 'table3.tex',
      'meta.tex', 'meta-regression.tex', 'meta-influence.tex', 'selective.tex']);
    expect(two.map((x) => x.f)).toEqual(['models.tex', 'cells.tex', 'reactions.tex', 'endgame.tex', 'table2.tex', 'table3.tex', 'selective.tex']);
  });

  it('at 345 pt each fits by its width estimate and has a caption and a label; selective.tex holds each model and condition in points', () => {
    for (const { f, text } of one) {
      expect(Number(ONE.exec(text)?.[1] ?? NaN), f).toBeLessThanOrEqual(345);
      const t = parseLatexTable(text);
      expect(t.caption.length, f).toBeGreaterThan(0);
      expect(t.label, f).toMatch(/^tab:/);
    }
    const sel = parseLatexTable(one.find((x) => x.f === 'selective.tex')!.text);
    expect(sel.header).toEqual(['Model', 'Condition', 'SS (points)', 'WR (points)', 'Verdict']);
    const rows = (enr345 as SelectiveAnalysis).rows;
    expect(sel.rows.map((r) => [r[0], r[1], r[4]])).toEqual(rows.map((r) => [r.model, r.condition, r.verdict]));
    // SS and WR in points at one decimal, as selective.md prints them: the fractions × 100.
    expect(sel.rows.map((r) => [r[2].split(' ')[0], r[3].split(' ')[0]])).toEqual(rows.map((r) => [(100 * r.ss).toFixed(1), (100 * r.wr).toFixed(1)]));
  });

  it('at 240 pt each fits the column or says it spans both; selective.tex fits the column', () => {
    for (const { f, text } of two) {
      const fit = FITS.exec(text) ?? SPANS.exec(text);
      expect(fit, f).not.toBeNull();
      expect(Number(fit![1]), f).toBeLessThanOrEqual(FITS.test(text) ? 240 : 345);
    }
    expect(FITS.test(two.find((x) => x.f === 'selective.tex')!.text)).toBe(true);
  });

  it('the regenerate commands name --latex-width when given, and only then', () => {
    const reproduced = reproduceTables({ logger: new MemoryLogger(), latexWidth: 240 });
    expect(JSON.parse(fileText(reproduced.files, 'metrics.json')).command).toMatch(/ --latex-width 240(?: |$)/);
    expect(JSON.parse(fileText(rep240.files, 'repeated.json')).command).toMatch(/ --latex-width 240(?: |$)/);
    expect(JSON.parse(fileText(enr240.files, 'selective.json')).command).toMatch(/ --latex-width 240(?: |$)/);
    expect(JSON.parse(fileText(rep345.files, 'repeated.json')).command).not.toContain('--latex-width');
    expect(JSON.parse(fileText(enr345.files, 'selective.json')).command).not.toContain('--latex-width');
  });

  it('the CLI lays selective.tex out for --latex-width on an enrichment store', async () => {
    const out = join(dir, 'enr-out');
    const r = await runCli(['analyze', 'runs/enr.sqlite', '--reps', '100', '--latex-width', '240', '--out', out, '-q'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'reports', 'selective.tex'), 'utf8')).toMatch(FITS);
  }, 60_000);

  it.skipIf(!HAS_PDFLATEX)('pdflatex: 0 overfull boxes and 0 "Float too large" at 345 pt and in two columns of 240 pt', () => {
    const a = compileTables(one.map((x) => x.text));
    expect(a.ok, a.log).toBe(true);
    expect(a.overfull).toEqual([]);
    const b = compileTables(two.map((x) => x.text), 'two-column');
    expect(b.ok, b.log).toBe(true);
    expect(b.overfull).toEqual([]);
  }, 120_000);
});
