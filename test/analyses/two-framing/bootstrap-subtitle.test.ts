import { describe, expect, it } from 'vitest';
import type { CellTable, Observations } from '../../../src/core/cells.js';
import { analyzeTwoFraming, type TwoFramingSettings } from '../../../src/analyses/two-framing/index.js';
import { twoFramingFigures } from '../../../src/analyses/two-framing/figures.js';

/**
 * The bootstrap-distribution figure says what its replicates redrew: whole matches for clustered
 * cells (--interval cluster-bootstrap, or bca on clustered cells), binomial counts for
 * independent trials. Two models × two games; clustered cells of 5 matches × 3 decisions.
 */
const clustered = (c: number[]): Observations => ({ kind: 'clustered', sizes: new Float64Array(c.length).fill(3), sums: Float64Array.from(c) });
const binary = (c: number[]): Observations => ({ kind: 'binary', n: 3 * c.length, x: c.reduce((s, v) => s + v, 0) });
const table = (obs: (c: number[]) => Observations): CellTable => ({
  factors: ['model', 'game', 'framing'],
  cells: ['m1', 'm2'].flatMap((model, i) => ['g1', 'g2'].flatMap((game, j) => [
    { key: { model, game, framing: 'b' }, obs: obs([0, 1, i, j, 2]) },
    { key: { model, game, framing: 's' }, obs: obs([3, 2, 2, 1 + i, 3 - j]) },
  ])),
});
const subtitle = (t: CellTable, s: Partial<TwoFramingSettings>) => {
  const f = twoFramingFigures(analyzeTwoFraming(t, { seed: 1, reps: 100, attenuation: 1, base: 'b', alt: 's', ...s })).find((x) => x.id === 'bootstrap-pooled')!;
  return (f.spec as { title: { subtitle: string } }).title.subtitle;
};

describe('bootstrap-pooled subtitle', () => {
  it('clustered cells redrawn by match: cluster bootstrap replicates', () => {
    expect(subtitle(table(clustered), { clusterInterval: 'cluster-bootstrap' })).toBe('B = 100 cluster bootstrap replicates, seed 1; 95 % percentile cluster-bootstrap intervals');
    expect(subtitle(table(clustered), { clusterInterval: 'cluster-bootstrap', interval: 'bca' })).toBe('B = 100 cluster bootstrap replicates, seed 1; 95 % BCa cluster-bootstrap intervals');
    expect(subtitle(table(clustered), {})).toBe('B = 100 cluster bootstrap replicates, seed 1; 95 % cluster-robust (CR2, Satterthwaite df) intervals');
  });
  it('independent trials: binomial bootstrap replicates', () => {
    expect(subtitle(table(binary), {})).toBe('B = 100 binomial bootstrap replicates, seed 1; 95 % percentile-bootstrap intervals');
    expect(subtitle(table(binary), { interval: 'bca' })).toBe('B = 100 binomial bootstrap replicates, seed 1; 95 % BCa-bootstrap intervals');
  });
});
