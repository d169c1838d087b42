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
