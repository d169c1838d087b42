/**
 * The repeated-play figures, LaTeX captions and the report's per-model text name the interval
 * method the analysis used: cluster-robust by default, the cluster bootstrap (with B and the seed)
 * only with `interval: 'cluster-bootstrap'` — never the bootstrap for cluster-robust intervals.
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/core/games.js';
import type { RepeatedDecision } from '../../../src/core/decisions.js';
import { analyzeRepeatedPlay } from '../../../src/analyses/repeated/analysis.js';
import { repeatedFigures } from '../../../src/analyses/repeated/figures.js';
import { cellsLatex, endGameLatex, modelsLatex } from '../../../src/analyses/repeated/latex.js';
import { modelRows } from '../../../src/analyses/repeated/models.js';
import { repeatedModelsSection } from '../../../src/analyses/repeated/report.js';

const moves: Action[][] = [['C', 'C'], ['D', 'C'], ['C', 'D'], ['C', 'C']];
const decisions: RepeatedDecision[] = moves.flatMap((m, j) => m.map((action, i) => (
  { model: 'A', game: 'pd', framing: 'f', opponent: 'tft', match: `m${j}`, round: i + 1, seat: 1, action, opponentAction: 'C' as Action })));

function texts(interval: 'cluster-robust' | 'cluster-bootstrap'): string[] {
  const a = analyzeRepeatedPlay(decisions, { seed: 7, reps: 50, interval });
  const subtitles = repeatedFigures(a).map((f) => `${JSON.stringify((f.spec as { title: unknown }).title)} ${f.caption}`);
  const captions = [modelsLatex(a, modelRows(a)), cellsLatex(a), endGameLatex(a)].map((t) => t.match(/\\caption\{([^}]*)\}/)![1]);
  const section = repeatedModelsSection(a, modelRows(a)).blocks[0] as { text: string };
  return [...subtitles, ...captions, section.text];
}

describe('the interval method as the outputs name it', () => {
  it('cluster-robust (the default): every figure, caption and the per-model text say so, none says bootstrap', () => {
    for (const t of texts('cluster-robust')) {
      expect(t).toContain('cluster-robust');
      expect(t).not.toMatch(/bootstrap|B = /);
    }
  });
  it('cluster-bootstrap: every figure, caption and the per-model text say so, with B', () => {
    for (const t of texts('cluster-bootstrap')) {
      expect(t).toContain('cluster-bootstrap intervals');
      expect(t).toContain('B = 50');
    }
  });
});

/** The subtitles describe what is drawn: no interval is claimed where a cell has too few matches for one. */
describe('the figure subtitles as drawn', () => {
  // Opponent "alld": 2 matches of 2 rounds, fewer than the 3 matches an interval needs.
  const few: RepeatedDecision[] = [['C', 'D'], ['D', 'D']].flatMap((m, j) => m.map((action, i) => (
    { model: 'A', game: 'pd', framing: 'f', opponent: 'alld', match: `n${j}`, round: i + 1, seat: 1, action: action as Action,
      opponentAction: 'D' as Action })));
  // Every cell plays game "pd" under framing "f": the subtitle names them once, before what is drawn.
  const subtitles = (d: RepeatedDecision[]) => repeatedFigures(analyzeRepeatedPlay(d, { seed: 7, reps: 50, interval: 'cluster-robust' }))
    .map((f) => (f.spec as { title: { subtitle: string } }).title.subtitle);

  it('every point from too few matches: no interval is claimed, the subtitle says none is drawn', () => {
    const [rounds, reactions] = subtitles(few);
    expect(rounds).toBe('pd, framing f: round rates only, no interval drawn: each rests on fewer than 3 matches, too few for any interval to hold its level');
    expect(reactions).toMatch(/^pd, framing f: reaction rates only, no interval drawn/);
    for (const s of [rounds, reactions]) expect(s).not.toMatch(/95 %|cluster-robust/);
  });

  it('some points without an interval: the method, and how many lack one', () => {
    // tft: 4 matches of 2 rounds (2 round rates with intervals); alld: 2 matches of 2 rounds (2 round rates without).
    const [rounds] = subtitles([...decisions, ...few]);
    expect(rounds).toBe('pd, framing f: 95 % cluster-robust (CR2, Satterthwaite df) intervals (match as cluster); 2 of 4 round rates without one (fewer than 3 matches)');
  });

  it('every point with an interval: the method only', () => {
    expect(subtitles(decisions)[0]).toBe('pd, framing f: 95 % cluster-robust (CR2, Satterthwaite df) intervals (match as cluster)');
  });
});
