import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactConditionalP, isSparse, smallestExpected } from '../../src/stats/framing-exact.js';
import { framingTest, gStatistic, type FramingPairCounts } from '../../src/stats/framing-test.js';
import { chi2Sf, logGamma } from '../../src/stats/chi2.js';
import { jsdBernoulli } from '../../src/stats/jsd.js';
import { binomial, generator } from '../helpers/independent-rng.js';

/** test/reference/framing_exact.py: P(ΣG ≥ g) by full enumeration of the tables with scipy's hypergeom. */
const REF = JSON.parse(readFileSync(new URL('../reference/framing_exact.json', import.meta.url), 'utf8')) as { pairs: number[][]; G: number; p: number }[];

const counts = (xb: number, nb: number, xs: number, ns: number): FramingPairCounts => ({ xb, nb, xs, ns, jsd: jsdBernoulli(xb / nb, xs / ns) });

describe('the exact conditional p of the summed G (sparse cells)', () => {
  it('is at least the full enumeration\'s p and within 1 % of it (its grid errs high)', () => {
    for (const c of REF) {
      const pairs = c.pairs.map(([xb, nb, xs, ns]) => ({ xb, nb, xs, ns }));
      const g = pairs.reduce((s, q) => s + gStatistic(q.xb, q.nb, q.xs, q.ns), 0);
      expect(g).toBeCloseTo(c.G, 10);
      const p = exactConditionalP(pairs, g, gStatistic);
      expect(p).toBeGreaterThanOrEqual(c.p - 1e-12);
      expect(p).toBeLessThanOrEqual(c.p * 1.01 + 1e-12);
    }
  });

  it('by hand: 0/50 against 3/50 has p = 2·C(50, 3)/C(100, 3) = 0.2424 (the two tables with all three on one side)', () => {
    expect(smallestExpected({ xb: 0, nb: 50, xs: 3, ns: 50 })).toBe(1.5);
    expect(exactConditionalP([{ xb: 0, nb: 50, xs: 3, ns: 50 }], gStatistic(0, 50, 3, 50), gStatistic)).toBeCloseTo(2 * 19600 / 161700, 9);
  });

  it('equals the full convolution bit for bit (every partial sum kept, none dropped as unable to reach the top bin)', () => {
    const logChoose = (n: number, k: number) => logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
    // The convolution over every bin, in the same order of terms: what the dropping of partial sums must not change.
    const full = (pairs: readonly { xb: number; nb: number; xs: number; ns: number }[], g: number): number => {
      if (!(g > 0)) return 1;
      const k = pairs.length, top = 1000 * k - k + 1, delta = g / (1000 * k);
      let mass = new Float64Array(top + 1), at = [0];
      mass[0] = 1;
      for (const q of pairs) {
        const N = q.nb + q.ns, t = q.xb + q.xs;
        if (t === 0 || t === N) continue;
        const next = new Float64Array(top + 1), seen = new Uint8Array(top + 1), nextAt: number[] = [];
        for (let x = Math.max(0, t - q.ns); x <= Math.min(q.nb, t); x++) {
          const w = Math.exp(logChoose(q.nb, x) + logChoose(q.ns, t - x) - logChoose(N, t));
          if (w === 0) continue;
          const step = Math.min(top, Math.floor(gStatistic(x, q.nb, t - x, q.ns) / delta + 1e-9));
          for (const j of at) {
            const to = Math.min(top, j + step);
            if (!seen[to]) { seen[to] = 1; nextAt.push(to); }
            next[to] += w * mass[j];
          }
        }
        mass = next; at = nextAt;
      }
      return Math.min(1, mass[top]);
    };
    const pair = fc.record({ nb: fc.integer({ min: 1, max: 60 }), ns: fc.integer({ min: 1, max: 60 }), pb: fc.double({ min: 0, max: 1, noNaN: true }),
      ps: fc.double({ min: 0, max: 1, noNaN: true }) }).map(({ nb, ns, pb, ps }) => ({ xb: Math.round(pb * nb), nb, xs: Math.round(ps * ns), ns }));
    fc.assert(fc.property(fc.array(pair, { minLength: 1, maxLength: 6 }), fc.double({ min: 0.2, max: 3, noNaN: true }), (pairs, scale) => {
      const g = scale * pairs.reduce((s, q) => s + gStatistic(q.xb, q.nb, q.xs, q.ns), 0);
      expect(Object.is(exactConditionalP(pairs, g, gStatistic), full(pairs, g))).toBe(true);
    }), { numRuns: 150, seed: 41 });
  });

  it('is used, and said, only where a pair has an expected count below 5', () => {
    expect(isSparse([{ xb: 20, nb: 50, xs: 25, ns: 50 }])).toBe(false);
    expect(framingTest([counts(20, 50, 25, 50)]).pMethod).toBe('chi2');
    const sparse = framingTest([counts(0, 50, 3, 50)]);
    expect(sparse.pMethod).toBe('exact');
    expect(sparse.p).toBe(Math.max(chi2Sf(sparse.G, 1), exactConditionalP([counts(0, 50, 3, 50)], sparse.G, gStatistic)));
  });
});

/**
 * Size at R = 1 with sparse cells and the one decision rule, on data from the independent
 * generator: 12 pairs, every rate p, (p, n per cell) = (0.02, 50), (0.01, 100), (0.005, 300), 1,500 data sets per
 * regime (Monte Carlo SE 0.0056 at 0.05; the χ² test alone measures 0.064–0.111 here).
 */
describe('the R = 1 test with sparse cells', () => {
  const SIMS = 1500;
  const simulate = (p: number, n: number, seed: number) => {
    const u = generator(seed);
    let rejected = 0, chi2Rejected = 0, disagree = 0;
    for (let s = 0; s < SIMS; s++) {
      const pairs = Array.from({ length: 12 }, () => counts(binomial(u, n, p), n, binomial(u, n, p), n));
      const t = framingTest(pairs);
      const changes = t.p < 0.05;
      if (changes) rejected++;
      if (chi2Sf(t.G, 12) < 0.05) chi2Rejected++;
      // the row's R interval reaches 1 exactly when its J interval starts at 0
      if (changes !== t.jsdInterval[0] > 0) disagree++;
    }
    return { size: rejected / SIMS, chi2: chi2Rejected / SIMS, disagree };
  };

  it.each([[0.02, 50, 13], [0.01, 100, 12], [0.005, 300, 11]])('rate %s, n = %s: size ≤ 0.06 and no row where the test and the R interval disagree', (p, n, seed) => {
    const r = simulate(p, n, seed);
    console.log(`sparse G-test size, 12 pairs, n = ${n}, rate ${p}: ${r.size.toFixed(4)} (chi-squared alone ${r.chi2.toFixed(4)})`);
    expect(r.size).toBeLessThanOrEqual(0.06);
    expect(r.disagree).toBe(0);
  });

  it('near the threshold (rates 0.3 against 0.3 + d, n = 50, one pair and four pairs): the decision and the interval never disagree', () => {
    const u = generator(99);
    let disagree = 0, rejected = 0;
    for (let s = 0; s < 3000; s++) {
      const k = s % 2 ? 1 : 4, d = (s % 3) * 0.05;
      const t = framingTest(Array.from({ length: k }, () => counts(binomial(u, 50, 0.3), 50, binomial(u, 50, 0.3 + d), 50)));
      if (t.p < 0.05) rejected++;
      if ((t.p < 0.05) !== t.jsdInterval[0] > 0) disagree++;
    }
    expect(rejected).toBeGreaterThan(300); // the rule is exercised on both sides
    expect(disagree).toBe(0);
  });
});
