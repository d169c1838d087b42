/**
 * Display names reach every title, caption and the match browser: the Akata log's players are
 * ids (act_gpt4, act_j, …) that the built-in format names and a names file renames; no figure spec
 * (titles, subtitles, captions, panel titles, legends, data) and no match of the browser shows an
 * id. A panel title names only what differs between panels (the log has one game and one framing:
 * the subtitle names them once, the game by its canonical name), and a chart whose rates have no
 * interval says so in its caption as well as its subtitle. The reproduction of the shipped data with
 * a names file shows the names in its figure, its report table, reproduction.tex and its sentence.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { repeatedFigureList } from '../../src/commands/pipeline/repeated-report.js';
import type { RepeatedResult } from '../../src/commands/pipeline/repeated.js';
import { matchBrowser } from '../../src/analyses/repeated/browser.js';
import { reproduceTables } from '../../src/commands/reproduce.js';
import { reproduceFigures } from '../../src/commands/reproduce-outputs.js';
import { reproductionSection } from '../../src/analyses/reproduction/index.js';
import { MemoryLogger } from '../../src/core/logger.js';
import { ROOT } from '../helpers/cli.js';

describe('display names in the repeated figures and the match browser (the Akata log, a names file)', async () => {
  const namesFile = join(mkdtempSync(join(tmpdir(), 'samegame-names-')), 'names.csv');
  writeFileSync(namesFile, 'id,name\nact_gpt4,GPT-4 (0613)\nact_j,Always J (log)\n');
  const res = await analyze({ trials: [join(ROOT, 'data/akata-2023/experiment_pd.csv')], format: 'akata', out: '/tmp/never-written', dryRun: true,
    figures: false, reps: 100, namesFile }) as RepeatedResult;
  const figures = repeatedFigureList(res);
  const RAW = /\bact_[a-z0-9_]+/;

  it('no id in any figure: titles, subtitles, captions, panels, legends and data show the names', () => {
    expect(figures.map((f) => f.id)).toEqual(['repeated-rounds', 'repeated-reactions']);
    for (const f of figures) {
      const text = JSON.stringify([f.title, f.caption, f.spec]);
      expect(RAW.exec(text)?.[0], f.id).toBeUndefined();
      const spec = f.spec as unknown as { title: { subtitle: string }; concat: { title: { text: string } }[] };
      // a published log's cells in the sorted order of their ids (act_claude, act_gpt3, act_gpt35, act_gpt4, act_llama2)
      expect(spec.concat.map((v) => v.title.text)).toEqual(['Claude 2', 'GPT-3', 'GPT-3.5', 'GPT-4 (0613)', 'Llama 2']);
      expect(spec.title.subtitle).toMatch(/^Prisoner's Dilemma, framing experiment_pd: (round|reaction) rates only, no interval drawn/);
      expect(text).toContain('Always J (log)');
    }
    expect(figures[0].caption).toContain('No band is drawn');
    expect(figures[0].caption).not.toContain('The band is the 95 % interval');
    expect(figures[1].caption).toContain('without intervals');
  });

  it('the match browser names both seats and each cell by their display names', () => {
    const block = matchBrowser(res.input.decisions, res.analysis.cells, 'match-browser', res.analysis.settings.names);
    const text = JSON.stringify(block.cells.map((c) => [c.label, c.matches.map((m) => m.rounds.map((r) => [r[1].player, r[2].player]))]));
    expect(RAW.exec(text)?.[0]).toBeUndefined();
    expect(block.cells[0].label).toBe('Claude 2 — against itself');
    expect(block.cells.map((c) => c.label)).toContain('GPT-4 (0613) — against Always J (log)');
    const seats = new Set(block.cells.flatMap((c) => c.matches.flatMap((m) => m.rounds.flatMap((r) => [r[1].player, r[2].player]))));
    expect(seats).toContain('GPT-4 (0613)');
    expect(seats).toContain('Always J (log)');
  });
});

describe('display names in the reproduction of published values (the shipped data, a names file)', () => {
  const namesFile = join(mkdtempSync(join(tmpdir(), 'samegame-names-')), 'names.csv');
  writeFileSync(namesFile, 'id,name\nGPT-3.5,OpenAI Turbo\nGPT-4,OpenAI Four\nLLaMa-2,Meta Llama two\n');
  const logger = new MemoryLogger();
  const res = reproduceTables({ namesFile, logger });
  const RAW = /GPT-3\.5|GPT-4|LLaMa-2/;

  it('the figure\'s points, rows and labels, the report\'s table and sentence, reproduction.tex and the printed sentence name no id', () => {
    const fig = reproduceFigures(res).find((f) => f.id === 'reproduction')!;
    const texts = {
      figure: JSON.stringify([fig.title, fig.caption, fig.spec]),
      section: JSON.stringify(reproductionSection(res.reproduction!, res.names?.map)),
      tex: String(res.files.find((f) => f.path.endsWith('reproduction.tex'))!.content),
      sentence: [...logger.infos, ...logger.warnings].find((m) => m.includes('published numbers:'))!,
    };
    for (const [what, text] of Object.entries(texts)) {
      expect(RAW.exec(text)?.[0], what).toBeUndefined();
      expect(text, what).toMatch(/OpenAI(?: |\\\\)Turbo/); // a .tex cell may set it in two lines
    }
    expect(texts.figure).toContain('Table 3 R_lo — OpenAI Turbo');
    expect(texts.sentence).toContain('Table 3 OpenAI Turbo R_lo: 0.956 published');
    // The CSV keeps the ids (the published file's names): what --expect compares with.
    expect(String(res.files.find((f) => f.path.endsWith('reproduction.csv'))!.content)).toContain('GPT-3.5');
  });
});
