import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { analyzeTwoFraming, type TwoFramingSettings } from '../../../src/analyses/two-framing/index.js';
import { table3Latex } from '../../../src/analyses/two-framing/latex.js';
import { twoFramingFigures } from '../../../src/analyses/two-framing/figures.js';
import { table3Section } from '../../../src/analyses/two-framing/report.js';
import { sweepFigure } from '../../../src/analyses/audit/figures.js';

/**
 * Clustered cells (matches of 4 decisions) name their interval method the same way in table3.tex,
 * the report's Table 3 text, the Table 3, cell-r2 and bootstrap figures and the audit's attenuation sweep: cluster-robust by default (the
 * cell R2 intervals are the cluster-robust ones, not the bootstrap's), the percentile or BCa
 * cluster bootstrap with `clusterInterval: 'cluster-bootstrap'` or `interval: 'bca'` — never a
 * bootstrap without "cluster". Two models × two games, 6 matches per cell.
 */
const matches = (ones: number[]) => ({ kind: 'clustered' as const, sizes: new Float64Array(ones.length).fill(4), sums: Float64Array.from(ones) });
const table: CellTable = {
  factors: ['model', 'game', 'framing'],
  cells: ['m1', 'm2'].flatMap((model, i) => ['g1', 'g2'].flatMap((game, j) => [
    { key: { model, game, framing: 'b' }, obs: matches([1, 2, 0, 1, 2 + i, 1 + j]) },
    { key: { model, game, framing: 's' }, obs: matches([3, 2, 4, 3, 2 + j, 3 - i]) },
  ])),
};

function texts(s: Partial<TwoFramingSettings>): Record<string, string> {
  const a = analyzeTwoFraming(table, { seed: 1, reps: 200, attenuation: 0.7, base: 'b', alt: 's', ...s });
  const subtitle = (id: string) => JSON.stringify((twoFramingFigures(a).find((f) => f.id === id)!.spec as { title: unknown }).title);
  const caption = (id: string) => twoFramingFigures(a).find((f) => f.id === id)!.caption;
  return {
    tex: table3Latex(a).match(/\\caption\{(.*)\}/)![1],
    report: (table3Section(a).blocks.find((b) => b.kind === 'text') as { text: string }).text,
    forest: subtitle('table3-forest') + caption('table3-forest'),
    r2: subtitle('cell-r2') + caption('cell-r2'),
    bootstrap: subtitle('bootstrap-pooled'),
    audit: sweepFigure([], a).caption,
  };
}

describe('interval names of clustered cells', () => {
  it('cluster-robust (the default): every caption and subtitle says so, none says bootstrap', () => {
    for (const [where, t] of Object.entries(texts({}))) {
      expect(t, where).toContain('cluster-robust (CR2, Satterthwaite df) intervals');
      if (where !== 'bootstrap') expect(t, where).not.toMatch(/bootstrap/); // the bootstrap figure shows replicates, and names the intervals
    }
  });
  it('the cluster bootstrap: "percentile cluster-bootstrap" everywhere, with B', () => {
    for (const [where, t] of Object.entries(texts({ clusterInterval: 'cluster-bootstrap' }))) {
      expect(t, where).toContain('percentile cluster-bootstrap intervals');
      expect(t, where).not.toContain('percentile-bootstrap');
    }
    expect(texts({ clusterInterval: 'cluster-bootstrap' }).r2).toContain('B = 200');
  });
  it('BCa on clustered cells: "BCa cluster-bootstrap"', () => {
    for (const [where, t] of Object.entries(texts({ interval: 'bca' }))) expect(t, where).toContain('BCa cluster-bootstrap intervals');
  });
});
