import { describe, expect, it } from 'vitest';
import { drawMatches, jeffreysTruth, pooledIcc } from '../../src/stats/beta-binomial.js';
import { streamFor } from '../../src/stats/rng.js';
import { testSampler } from '../helpers/beta-binomial.js';

/** The simulation pieces of `samegame coverage` for clustered cells (docs/methods.md §17). */
describe('within-match correlation (one-way ANOVA estimator)', () => {
  it('by hand: three matches of 3 decisions, 3, 1 and 2 cooperations', () => {
    // r = 2/3; SSB = 3·((1/3)² + (1/3)² + 0) = 2/3 on 2 df; SSW = 0 + 2/3 + 2/3 on 6 df;
    // MSB = 1/3, MSW = 2/9, n₀ = (9 − 27/9)/2 = 3: ρ = (1/3 − 2/9)/(1/3 + 2·2/9) = 1/7
    expect(pooledIcc([{ sizes: [3, 3, 3], sums: [3, 1, 2] }])).toBeCloseTo(1 / 7, 12);
  });
  it('clipped to [0, 0.99]: matches all alike → 0.99; no spread between matches → 0', () => {
    expect(pooledIcc([{ sizes: [2, 2], sums: [2, 0] }])).toBe(0.99);
    expect(pooledIcc([{ sizes: [2, 2], sums: [1, 1] }])).toBe(0);
    expect(pooledIcc([{ sizes: [5], sums: [2] }])).toBe(0);
  });
  it('recovers the correlation of the independent generator (4 cells × 500 matches of 10, ρ = 0.3) within 0.03', () => {
    const gen = testSampler(9);
    const cells = [0.2, 0.4, 0.6, 0.8].map((p) => gen.matches(500, 10, p, 0.3));
    expect(Math.abs(pooledIcc(cells) - 0.3)).toBeLessThan(0.03);
  });
});

describe('beta-binomial matches and Jeffreys truths', () => {
  it('drawMatches: mean p and correlation ρ (2,000 matches of 10, p = 0.3, ρ = 0.3)', () => {
    const sizes = new Float64Array(2000).fill(10);
    const sums = drawMatches(sizes, 0.3, 0.3, streamFor(1, 'matches'));
    const mean = sums.reduce((a, b) => a + b, 0) / 20_000;
    expect(Math.abs(mean - 0.3)).toBeLessThan(0.02); // s.e. √(0.21·3.7/20,000) ≈ 0.0062
    expect(Math.abs(pooledIcc([{ sizes, sums }]) - 0.3)).toBeLessThan(0.04);
  });
  it('jeffreysTruth: Beta(x + ½, n − x + ½) — a 0/50 cell varies, with mean 0.5/51', () => {
    const rng = streamFor(2, 'truth');
    const draws = Array.from({ length: 20_000 }, () => jeffreysTruth(0, 50, 1, 0, rng));
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    expect(Math.min(...draws)).toBeGreaterThan(0);
    expect(Math.abs(mean - 0.5 / 51)).toBeLessThan(0.0005); // sd of the Beta(0.5, 50.5) ≈ 0.0137, s.e. of the mean ≈ 0.0001
  });
});
