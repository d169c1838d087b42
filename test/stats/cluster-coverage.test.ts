import { describe, expect, it } from 'vitest';
import { clusterDifferenceInterval, clusterRateInterval } from '../../src/stats/cluster-intervals.js';
import { betaBinomialMatches } from '../helpers/beta-binomial.js';

/**
 * Coverage of the default intervals of clustered cells (docs/methods.md, "Clustered data"), on data
 * from an independent beta-binomial generator (test/helpers/beta-binomial.ts): G matches of 10
 * rounds per cell, intra-match correlation 0.3, true rate 0.3 or 0.95; 2,000 data sets per regime
 * (Monte Carlo s.e. of a coverage near 0.95 ≈ 0.005, so 0.90 and 0.95 are told apart).
 *
 * Width is compared with the t(G − 1) interval on the match means, r̄ ± t·s/√G (for the shift,
 * t(G − 1) on √(s₁²/G + s₂²/G)): the median width must stay within 1.3 times its median over the
 * data sets where that interval has a width (at rate 0.95 with G ≤ 5 a third to a half of data sets
 * have every match at 10/10, where the t interval is a point and covers nothing).
 */
const SETS = 2000;
const tq: Record<number, number> = { 2: 4.302652729749462, 4: 2.7764451051977934, 9: 2.262157162798205 }; // scipy.stats.t.ppf(0.975, G − 1)

const median = (v: number[]) => { const w = [...v].sort((a, b) => a - b); return w[Math.floor(w.length / 2)]; };
function matchMeans(c: { sizes: Float64Array; sums: Float64Array }): { mean: number; s2: number } {
  const m = Array.from(c.sums, (s, j) => s / c.sizes[j]);
  const mean = m.reduce((a, b) => a + b, 0) / m.length;
  return { mean, s2: m.reduce((a, b) => a + (b - mean) ** 2, 0) / (m.length - 1) };
}

describe('clustered cells: coverage of the rate and the shift', () => {
  for (const p of [0.3, 0.95]) {
    for (const G of [3, 5, 10]) {
      it(`G = ${G} matches of 10 rounds, ICC 0.3, rate ${p}`, () => {
        const draw = betaBinomialMatches(1000 * G + Math.round(100 * p));
        let rate = 0, shift = 0;
        const w: number[] = [], wt: number[] = [], ws: number[] = [], wst: number[] = [];
        for (let s = 0; s < SETS; s++) {
          const a = draw(G, 10, p, 0.3), b = draw(G, 10, p, 0.3);
          const r = clusterRateInterval(a), d = clusterDifferenceInterval(a, b, false);
          if (r.lo <= p && p <= r.hi) rate++;
          if (d.lo <= 0 && 0 <= d.hi) shift++;
          w.push(r.hi - r.lo); ws.push(d.hi - d.lo);
          const ma = matchMeans(a), mb = matchMeans(b);
          wt.push(2 * tq[G - 1] * Math.sqrt(ma.s2 / G));
          wst.push(2 * tq[G - 1] * Math.sqrt(ma.s2 / G + mb.s2 / G));
        }
        expect(rate / SETS).toBeGreaterThanOrEqual(0.9);
        expect(shift / SETS).toBeGreaterThanOrEqual(0.9);
        expect(median(w)).toBeLessThanOrEqual(1.3 * median(wt.filter((x) => x > 0)));
        expect(median(ws)).toBeLessThanOrEqual(1.3 * median(wst.filter((x) => x > 0)));
      });
    }
  }

  it('a shift between cells at 0.3 and 0.95 (G = 5 each) covers 0.65', () => {
    const draw = betaBinomialMatches(77);
    let hit = 0;
    for (let s = 0; s < SETS; s++) {
      const d = clusterDifferenceInterval(draw(5, 10, 0.3, 0.3), draw(5, 10, 0.95, 0.3), false);
      if (d.lo <= 0.65 && 0.65 <= d.hi) hit++;
    }
    expect(hit / SETS).toBeGreaterThanOrEqual(0.9);
  });

  it('G = 2: no interval for the rate or the shift', () => {
    const draw = betaBinomialMatches(2);
    for (let s = 0; s < 50; s++) {
      const a = draw(2, 10, 0.3, 0.3), b = draw(5, 10, 0.3, 0.3);
      expect(clusterRateInterval(a).kind).toBe('none');
      expect(clusterDifferenceInterval(a, b, false).lo).toBeNaN();
    }
  });
});
