import { describe, expect, it } from 'vitest';
import { chi2Cdf, chi2Sf, gammaP, ncChi2Cdf, noncentralityInterval } from '../../src/stats/chi2.js';
import { framingTest, gStatistic, jsdScale, rectangleInterval } from '../../src/stats/framing-test.js';
import { jsdBernoulli } from '../../src/stats/jsd.js';
import { moverInterval, wilsonInterval } from '../../src/stats/wilson.js';

/** Expected values: scipy, printed by test/reference/chi2_reference.py (committed beside this test). */
describe('chi-squared distributions against scipy', () => {
  it('central', () => {
    expect(gammaP(2.5, 1.3)).toBeCloseTo(0.23863473215498604, 13);
    expect(chi2Cdf(3.84, 1)).toBeCloseTo(0.9499564787512949, 13);
    expect(chi2Sf(50, 12) / 1.3971121075428589e-06).toBeCloseTo(1, 10);
    expect(chi2Sf(300, 1) / 3.2943623833139784e-67).toBeCloseTo(1, 10);
  });
  it('noncentral', () => {
    expect(ncChi2Cdf(10, 3, 4.5)).toBeCloseTo(0.7416555831880626, 12);
    expect(ncChi2Cdf(500, 12, 600)).toBeCloseTo(0.008912734753573221, 12);
    expect(ncChi2Cdf(0.3, 1, 0.2)).toBeCloseTo(0.3801462068744019, 12);
    expect(ncChi2Cdf(30000, 12, 29000)).toBeCloseTo(0.9980065272198133, 9);
  });
  it('the noncentrality interval by inversion', () => {
    const [a, b] = noncentralityInterval(25, 12);
    expect(a).toBeCloseTo(0.8748683391246522, 7);
    expect(b).toBeCloseTo(35.366740495020984, 7);
    expect(noncentralityInterval(3, 1)[0]).toBe(0);
    expect(noncentralityInterval(3, 1)[1]).toBeCloseTo(13.630969544914818, 7);
    const [c, d] = noncentralityInterval(5000, 12);
    expect(c).toBeCloseTo(4715.814243001195, 5);
    expect(d).toBeCloseTo(5269.870761064816, 5);
  });
});

describe('the G statistic and the Wilson and MOVER intervals (hand derivations)', () => {
  it('G = 0 (0/50 and 0/50): the JSD interval spans the Wilson rectangle at 97.5 % per cell', () => {
    const z = 2.241402727604947; // Φ⁻¹(1 − 0.025/2)
    const u = z * z / (50 + z * z);
    const [lo, hi] = rectangleInterval([{ xb: 0, nb: 50, xs: 0, ns: 50, jsd: 0 }]);
    expect(lo).toBe(0);
    expect(hi).toBeCloseTo(jsdBernoulli(0, u), 14);
    // framingTest's ends are one-sided 95 % bounds: its rectangle is at level 0.90, 95 % per cell
    const z95 = 1.959963984540054; // Φ⁻¹(1 − 0.05/2)
    const t = framingTest([{ xb: 0, nb: 50, xs: 0, ns: 50, jsd: 0 }]);
    expect([t.G, t.p, t.intervalMethod]).toEqual([0, 1, 'rectangle']);
    expect(t.jsdInterval[1]).toBeCloseTo(jsdBernoulli(0, z95 * z95 / (50 + z95 * z95)), 14);
  });
  it('G = 4n·JSD for equal sizes, and 2 Σ O ln(O/E) in general', () => {
    expect(gStatistic(30, 100, 45, 100)).toBeCloseTo(4 * 100 * jsdBernoulli(0.3, 0.45), 12);
    // 2×2 table [[10, 40], [30, 70]]: E = [[13.33, 36.67], [26.67, 73.33]].
    const O = [10, 40, 30, 70], E = [50 * 40 / 150, 50 * 110 / 150, 100 * 40 / 150, 100 * 110 / 150];
    const g = 2 * O.reduce((s, o, i) => s + o * Math.log(o / E[i]), 0);
    expect(gStatistic(10, 50, 30, 100)).toBeCloseTo(g, 12);
    expect(jsdScale(100, 100)).toBe(400);
  });
  it('Wilson at 0/n is [0, z²/(n + z²)], and MOVER of one difference is Newcombe\'s method 10', () => {
    const z = 1.959963984540054;
    const [l, u] = wilsonInterval(0, 50);
    expect(l).toBe(0);
    expect(u).toBeCloseTo(z * z / (50 + z * z), 12);
    // Newcombe (1998), Table II example (e): 56/70 − 48/80 = 0.2, method 10 interval [0.0524, 0.3339].
    const [a, b] = moverInterval([{ x: 56, n: 70, weight: 1 }, { x: 48, n: 80, weight: -1 }]);
    expect(a).toBeCloseTo(0.0524, 4);
    expect(b).toBeCloseTo(0.3339, 4);
  });
});
