/**
 * The report of the shipped Akata et al. log (analyze --trials … --format akata), checked on its
 * files: every row of every table has the header's number of cells; the round figure is at most
 * 2,000 px tall, one panel per LLM (fixed strategies as opponents only), each panel with its x axis
 * and at most eight series; `--names` turns act_gpt4 into the given name in the figure, the report
 * and LaTeX while the CSVs keep the id; the LaTeX files parse (and compile where pdflatex is
 * installed, the hostile name printed as written). test/browser/akata-report.test.ts checks the
 * same in chromium.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { AKATA_LOG, htmlTables, pngSize, specPanels } from '../helpers/akata-report.js';
import { compileTables, HAS_PDFLATEX, parseLatexTable } from '../helpers/latex.js';
import { ROOT } from '../helpers/cli.js';

const HOSTILE = 'R&D_50%_{x}';
const tmp = mkdtempSync(join(tmpdir(), 'samegame-akata-report-'));
const plain = join(tmp, 'plain'), named = join(tmp, 'named');
// in the stable order of the cells: the ids sorted (act_claude, act_gpt3, act_gpt35, act_gpt4, act_llama2)
const LLMS = ['Claude 2', 'GPT-3', 'GPT-3.5', 'GPT-4', 'Llama 2'];

beforeAll(async () => {
  const names = join(tmp, 'names.csv');
  writeFileSync(names, `id,name\nact_gpt4,"${HOSTILE}"\nact_claude,Claude Two\n`);
  for (const [out, extra] of [[plain, []], [named, ['--names', names]]] as const) {
    const r = await runInProcess(['analyze', '--trials', AKATA_LOG, '--format', 'akata', '--out', out, '--reps', '100', '-q', ...extra], 120_000);
    if (r.code !== 0) throw new Error(r.stderr);
  }
}, 240_000);

describe('the Akata log\'s report', () => {
  it('every row of every table has the header\'s number of cells (self-play rows included)', () => {
    const tables = htmlTables(readFileSync(join(plain, 'reports', 'report.html'), 'utf8'));
    expect(tables.map((t) => t.id)).toEqual(expect.arrayContaining(['repeated-models-table', 'repeated-cells-table', 'repeated-reactions-table', 'repeated-endgame-table']));
    for (const t of tables) for (const [i, r] of t.rows.entries()) expect(r.length, `${t.id} row ${i + 1}`).toBe(t.header.length);
    const reactions = tables.find((t) => t.id === 'repeated-reactions-table')!;
    expect(reactions.rows.filter((r) => r[3] === 'self')).toHaveLength(5); // each LLM against itself: `self`, with its four reactions
    expect(reactions.rows.flatMap((r) => r.slice(3, 4))).not.toContain('act_gpt4');
  });

  it('one panel per LLM, each with its x axis and at most eight series; the PNG at most 2,000 px tall', () => {
    for (const id of ['repeated-rounds', 'repeated-reactions']) {
      const spec = JSON.parse(readFileSync(join(plain, 'figures', `${id}.vl.json`), 'utf8'));
      const panels = specPanels(spec);
      expect(panels.map((p) => p.title.split(' — ')[0])).toEqual(LLMS);
      for (const p of panels) {
        expect(p.xAxis, p.title).toBe(true);
        expect(p.series.length).toBeLessThanOrEqual(8);
        expect(p.series).toEqual(expect.arrayContaining(['Always J', 'Always F', 'Defect once', 'self']));
      }
      const { height } = pngSize(join(plain, 'figures', `${id}.png`));
      expect(height, id).toBeLessThanOrEqual(2000);
      // x axes drawn: one "Round" / "Previous round" axis title per panel in the SVG
      const svg = readFileSync(join(plain, 'figures', `${id}.svg`), 'utf8');
      expect((svg.match(id === 'repeated-rounds' ? />Round</g : />Previous round \(own move, other's move\)</g) ?? []).length).toBe(LLMS.length);
    }
  });

  it('a per-model summary over opponents: models.csv and its table, scripted players not among the models', () => {
    const csv = readFileSync(join(plain, 'reports', 'models.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toMatch(/^model,game,framing,opponents,matches,decisions,cooperation,cooperation_lo,cooperation_hi,first_round,/);
    expect(csv.slice(1).map((l) => l.split(',')[0])).toEqual(['act_claude', 'act_gpt3', 'act_gpt35', 'act_gpt4', 'act_llama2']);
    // Cooperation over all rounds, the mean over each model's 8 opponents of the rates counted by hand (test/fixtures/akata-2023/hand_counts.py).
    const hand = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'akata-2023', 'hand_counts.json'), 'utf8')) as { cells: { model: string; rate: number }[] };
    for (const line of csv.slice(1)) {
      const [model, , , opponents, , , cooperation] = line.split(',');
      const rates = hand.cells.filter((c) => c.model === model).map((c) => c.rate);
      expect(Number(opponents)).toBe(rates.length);
      expect(Number(cooperation)).toBeCloseTo(rates.reduce((a, b) => a + b, 0) / rates.length, 12);
    }
    expect(readFileSync(join(plain, 'reports', 'cells.csv'), 'utf8')).not.toMatch(/^act_j,/m);
  });

  it('--names turns act_gpt4 into the name in the figures, the report and LaTeX; the CSVs keep the id and add the name', () => {
    const html = readFileSync(join(named, 'reports', 'report.html'), 'utf8');
    const esc = HOSTILE.replace(/&/g, '&amp;');
    expect(html).toContain(`<td>${esc}</td>`);
    expect(html).not.toMatch(/<td>act_gpt4<\/td>/);
    const spec = JSON.parse(readFileSync(join(named, 'figures', 'repeated-rounds.vl.json'), 'utf8'));
    expect(specPanels(spec)[3].title.startsWith(HOSTILE)).toBe(true); // act_gpt4, fourth in sorted order
    expect(specPanels(spec)[0].series).toContain(HOSTILE);
    expect(readFileSync(join(named, 'figures', 'repeated-rounds.svg'), 'utf8')).toContain(esc);
    const cells = readFileSync(join(named, 'reports', 'cells.csv'), 'utf8').split('\n');
    expect(cells[0]).toBe('model,game,framing,opponent,matches,decisions,cooperation,lo,hi,df,note,model_name,opponent_name');
    expect(cells.find((l) => l.startsWith('act_gpt4,') && l.endsWith(',self'))).toMatch(/^act_gpt4,.*,"?R&D_50%_\{x\}"?,self$/);
    expect(readFileSync(join(named, 'reports', 'models.tex'), 'utf8')).toContain('R\\&D\\_50\\%\\_\\{x\\}');
  });

  it('LaTeX: every .tex of the analysis and of the committed reproduce parses; each compiles and the hostile name prints, where pdflatex is installed', () => {
    const texOf = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.tex')).map((f) => ({ f, text: readFileSync(join(dir, f), 'utf8') }));
    const akata = texOf(join(named, 'reports')), shipped = texOf(join(ROOT, 'reports'));
    expect(akata.map((x) => x.f).sort()).toEqual(['cells.tex', 'endgame.tex', 'models.tex', 'reactions.tex']);
    expect(shipped.map((x) => x.f).sort()).toEqual(['reproduction.tex', 'table2.tex', 'table3.tex']);
    for (const { f, text } of [...akata, ...shipped]) expect(() => parseLatexTable(text), f).not.toThrow();
    if (!HAS_PDFLATEX) return;
    for (const set of [akata, shipped]) {
      const r = compileTables(set.map((x) => x.text));
      expect(r.ok, r.log).toBe(true);
      if (set === akata) expect(r.text.some((s) => s.includes(HOSTILE))).toBe(true);
    }
  });
});
