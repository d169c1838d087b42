import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { analyzeTwoFraming, type TwoFramingSettings } from '../../../src/analyses/two-framing/index.js';
import { table3Latex } from '../../../src/analyses/two-framing/latex.js';

/**
 * table3.tex's caption says how its numbers were made, as the report's Table 3 text does: the
 * attenuation (the same counts give other R and shift at a = 0.7, 0.5 or 1), the interval method
 * and, with --simultaneous, that the per-model rows are bands. Two models × two games, hand counts.
 */
const table: CellTable = {
  factors: ['model', 'game', 'framing'],
  cells: ['m1', 'm2'].flatMap((model, i) => ['g1', 'g2'].flatMap((game, j) => [
    { key: { model, game, framing: 'b' }, obs: { kind: 'binary' as const, n: 50, x: 10 + 5 * i + 3 * j } },
    { key: { model, game, framing: 's' }, obs: { kind: 'binary' as const, n: 50, x: 30 - 4 * i + 2 * j } },
  ])),
};
const caption = (s: Partial<TwoFramingSettings>) =>
  table3Latex(analyzeTwoFraming(table, { seed: 1, reps: 200, attenuation: 0.7, base: 'b', alt: 's', ...s })).match(/\\caption\{(.*)\}/)![1];

describe('table3.tex caption', () => {
  it('names the attenuation', () => {
    expect(caption({})).toContain('attenuation a = 0.7');
    expect(caption({ attenuation: 0.5 })).toContain('attenuation a = 0.5');
    expect(caption({ attenuation: 1 })).toContain('without attenuation (a = 1)');
  });
  it('names the interval method and B', () => {
    expect(caption({})).toContain('95 \\% percentile-bootstrap intervals (B = 200)');
    expect(caption({ interval: 'bca' })).toContain('95 \\% BCa-bootstrap intervals (B = 200)');
  });
  it('says when the per-model rows are simultaneous bands', () => {
    expect(caption({ simultaneous: true })).toContain('simultaneous sup-t bands (Pooled pointwise)');
    expect(caption({})).not.toContain('simultaneous');
  });
});
