import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cr2Contrast } from '../../src/stats/cluster-robust.js';
import { clopperPearson, clusterDifferenceInterval, clusterRateInterval, clusterSmoothInterval, derivatives } from '../../src/stats/cluster-intervals.js';
import { robustness2 } from '../../src/stats/jsd.js';
import { betaQuantile, tQuantile } from '../../src/stats/t-beta.js';

/**
 * CR2 variances and Satterthwaite degrees of freedom against test/reference/cluster_robust.py,
 * which builds the regression's matrices and takes A_j = (I − H_jj)^(−1/2) by eigendecomposition
 * (no closed form); t and beta quantiles against scipy.stats.
 */
interface Case { name: string; columns: { sizes: number[]; sums: number[] }[]; coef: number[]; groups: number[]; estimate: number; variance: number; df: number }
const ref = JSON.parse(readFileSync(new URL('../reference/cluster_robust.json', import.meta.url), 'utf8')) as {
  cases: Case[]; quantiles: { t: { p: number; df: number; q: number }[]; beta: { p: number; a: number; b: number; q: number }[] };
};

/** Matches of 10 decisions with the given match means. */
const col = (means: number[], n = 10) => ({ sizes: new Float64Array(means.length).fill(n), sums: Float64Array.from(means, (m) => m * n) });

describe('CR2 with Satterthwaite degrees of freedom (reference: general matrix computation in numpy)', () => {
  for (const c of ref.cases) {
    it(c.name, () => {
      // groups name clusters; a column of group g indexes the matches of g, so columns of one group share their length
      const r = cr2Contrast(c.columns.map((col, k) => ({ group: c.groups[k], column: { sizes: Float64Array.from(col.sizes), sums: Float64Array.from(col.sums) }, coef: c.coef[k] })));
      expect(r.estimate).toBeCloseTo(c.estimate, 12);
      expect(r.variance / c.variance).toBeCloseTo(1, 10);
      expect(r.df / c.df).toBeCloseTo(1, 10);
    });
  }
});

/** The same cases through R's clubSandwich (test/reference/cluster_robust_clubsandwich.R): linear_contrast, CR2, Satterthwaite. */
const club = JSON.parse(readFileSync(new URL('../reference/cluster_robust_clubsandwich.json', import.meta.url), 'utf8')) as {
  cases: { name: string; estimate: number; variance: number; df: number }[];
};

describe('CR2 with Satterthwaite degrees of freedom (reference: R clubSandwich 0.5.8)', () => {
  it('the reference covers every case of the numpy reference', () => {
    expect(club.cases.map((c) => c.name)).toEqual(ref.cases.map((c) => c.name));
  });
  for (const [i, c] of ref.cases.entries()) {
    it(c.name, () => {
      const r = cr2Contrast(c.columns.map((col, k) => ({ group: c.groups[k], column: { sizes: Float64Array.from(col.sizes), sums: Float64Array.from(col.sums) }, coef: c.coef[k] })));
      expect(r.estimate).toBeCloseTo(club.cases[i].estimate, 12);
      expect(r.variance / club.cases[i].variance).toBeCloseTo(1, 10);
      expect(r.df / club.cases[i].df).toBeCloseTo(1, 10);
    });
  }
});

describe('t and beta quantiles (reference: scipy.stats)', () => {
  it('t', () => { for (const q of ref.quantiles.t) expect(tQuantile(q.p, q.df)).toBeCloseTo(q.q, 9); });
  it('beta (absolute 1e-10; relative 1e-9 below 0.5)', () => {
    for (const q of ref.quantiles.beta) {
      const got = betaQuantile(q.p, q.a, q.b);
      expect(got).toBeCloseTo(q.q, 10);
      if (q.q > 0 && q.q < 0.5) expect(Math.abs(got / q.q - 1), JSON.stringify(q)).toBeLessThan(1e-9);
    }
  });
});

describe('cluster intervals', () => {
  it('near 1: Clopper–Pearson on the Korn–Graubard effective n with the df adjustment (hand computation, scipy quantiles)', () => {
    // match means 1 1 1 1 0.8 (10 decisions each): r = 0.96, V = s²/5 with s² = (4·0.04² + 0.16²)/4 = 0.008;
    // t: 0.96 ± 2.776·0.04 leaves [0, 1]. n* = min(50, 0.96·0.04/0.0016) · (t_49/t_4)² = 24 · (2.0095752371292392/2.7764451051977934)² = 12.5731
    const iv = clusterRateInterval(col([1, 1, 1, 1, 0.8]));
    const n = 24 * (2.0095752371292392 / 2.7764451051977934) ** 2, x = 0.96 * n;
    expect(iv.kind).toBe('beta');
    expect(iv.lo).toBeCloseTo(betaQuantile(0.025, x, n - x + 1), 10);
    expect(iv.hi).toBeCloseTo(betaQuantile(0.975, x + 1, n - x), 10);
    expect(iv.lo).toBeCloseTo(0.6837461014437316, 8); // scipy.stats.beta.ppf(0.025, x, n − x + 1)
    expect(iv.hi).toBeCloseTo(0.9999599674716966, 8); // scipy.stats.beta.ppf(0.975, x + 1, n − x)
  });
  it('equal match lengths: the t interval on G − 1 df of the match means (hand computation)', () => {
    // match means 0.3 0.5 0.2 0.7: mean 0.425, s² = 0.1475/3, se = √(s²/4); t(3, 0.975) = 3.182446305284263
    const iv = clusterRateInterval(col([0.3, 0.5, 0.2, 0.7]));
    const half = 3.182446305284263 * Math.sqrt(0.1475 / 3 / 4);
    expect(iv.kind).toBe('t');
    expect(iv.df).toBeCloseTo(3, 10);
    expect(iv.lo).toBeCloseTo(0.425 - half, 10);
    expect(iv.hi).toBeCloseTo(0.425 + half, 10);
  });
  it('fewer than 3 matches: no interval', () => {
    const iv = clusterRateInterval(col([0.2, 0.4]));
    expect(iv.kind).toBe('none');
    expect(iv.lo).toBeNaN();
    expect(clusterDifferenceInterval(col([0.2, 0.4]), col([0.1, 0.5, 0.3]), false).kind).toBe('none');
  });
  it('identical matches strictly inside (0, 1): an interval of positive width (Clopper–Pearson on the effective n)', () => {
    const iv = clusterRateInterval(col([0.2, 0.2, 0.2]));
    expect(iv.kind).toBe('beta');
    expect(iv.lo).toBeLessThan(0.2);
    expect(iv.hi).toBeGreaterThan(0.2);
  });
  it('Clopper–Pearson at 0/n and n/n: the closed form [0, 1 − (α/2)^(1/n)], [(α/2)^(1/n), 1] (Clopper & Pearson 1934)', () => {
    // Hand values: 1 − 0.025^(1/n); 0/10 → 0.3085 is the tabulated Clopper–Pearson upper limit.
    expect(clopperPearson(0, 300, 0.95)[1]).toBeCloseTo(0.0122209747, 9);
    expect(clopperPearson(0, 300, 0.95)[0]).toBe(0);
    expect(clopperPearson(0, 10, 0.95)[1]).toBeCloseTo(0.3084971078, 9);
    expect(clopperPearson(0, 1, 0.95)).toEqual([0, 0.975]);
    expect(clopperPearson(1, 300, 0.95)[0]).toBeCloseTo(0.9877790253, 9);
    expect(clopperPearson(1, 300, 0.95)[1]).toBe(1);
    expect(clopperPearson(1, 1, 0.95)[0]).toBeCloseTo(0.025, 15);
    // The closed form is the beta quantile the interior uses: Beta(1, n) and Beta(n, 1).
    for (const n of [1, 2, 7, 300, 5000, Math.sqrt(250)]) {
      expect(clopperPearson(0, n, 0.95)[1]).toBeCloseTo(betaQuantile(0.975, 1, n), 13);
      expect(clopperPearson(1, n, 0.95)[0]).toBeCloseTo(betaQuantile(0.025, n, 1), 13);
    }
  });
  it('one-sided Clopper–Pearson bounds: α in the one tail (no failures in 1,000: p^1000 = 0.05)', () => {
    expect(clopperPearson(1, 1000, 0.95, 1)[0]).toBeCloseTo(0.997009, 6);
    expect(clopperPearson(0, 1000, 0.95, 1)[1]).toBeCloseTo(0.002991, 6);
    // 15 of 50: scipy.stats.beta.ppf(0.05, 15, 36) = 0.19488489725650174, beta.ppf(0.95, 16, 35) = 0.4237329666080823
    const [lo, hi] = clopperPearson(0.3, 50, 0.95, 1);
    expect(lo).toBeCloseTo(0.19488489725650174, 12);
    expect(hi).toBeCloseTo(0.4237329666080823, 12);
  });
  it('every decision 1: Clopper–Pearson on n* = √(N·G), upper end 1', () => {
    const iv = clusterRateInterval(col([1, 1, 1, 1, 1]));
    // N = 50 decisions in G = 5 matches: n* = √250, lower end (α/2)^(1/n*)
    const nEff = Math.sqrt(250);
    expect(iv.hi).toBe(1);
    expect(iv.lo).toBeCloseTo(0.025 ** (1 / nEff), 10);
    expect(clopperPearson(1, nEff, 0.95)[0]).toBeCloseTo(iv.lo, 12);
  });
  it('a difference of independent cells: CR2 variance, Satterthwaite df of the working model (hand derivation)', () => {
    const a = col([0.3, 0.5, 0.2, 0.7]), b = col([0.4, 0.6, 0.5]);
    const va = 0.1475 / 3 / 4;
    const mb = 0.5, vb = ((0.4 - mb) ** 2 + (0.6 - mb) ** 2) / 2 / 3;
    // Under independent decisions of equal variance the df depends on the design only: each cell's
    // variance estimate is ∝ 1/G with G − 1 df, so ν = (1/4 + 1/3)² / ((1/4)²/3 + (1/3)²/2) = 4.4545…
    const df = (1 / 4 + 1 / 3) ** 2 / ((1 / 4) ** 2 / 3 + (1 / 3) ** 2 / 2);
    const iv = clusterDifferenceInterval(a, b, false);
    expect(iv.df).toBeCloseTo(df, 8);
    expect(iv.hi - iv.point).toBeCloseTo(tQuantile(0.975, df) * Math.sqrt(va + vb), 8);
  });
});

describe('smooth statistics', () => {
  it('derivatives: f = (r₀², 3 r₁) at (0.4, 0.7) → first (0.8, 0, 0, 3), second (2, 0, 0, 0), column-major', () => {
    const { first, second } = derivatives((r, o) => { o[0] = r[0] * r[0]; o[1] = 3 * r[1]; }, Float64Array.from([0.4, 0.7]), 2);
    [0.8, 0, 0, 3].forEach((v, i) => expect(first[i]).toBeCloseTo(v, 6));
    [2, 0, 0, 0].forEach((v, i) => expect(second[i]).toBeCloseTo(v, 4));
  });
  it('R at equal rates: zero gradient, yet an interval [lo < 1, 1] from the curvature (½ Σ|h_k| V_k, reached at t²)', () => {
    const a = col([0.3, 0.5, 0.4, 0.6]), b = col([0.6, 0.4, 0.5, 0.3]); // both rates 0.45
    const f = (r: Float64Array, o: Float64Array) => { o[0] = robustness2(r[0], r[1]); };
    const { first, second } = derivatives(f, Float64Array.from([0.45, 0.45]), 1);
    expect(Math.abs(first[0]) + Math.abs(first[1])).toBeLessThan(1e-6);
    const iv = clusterSmoothInterval([a, b], first, second, 1, [0, 1], { centre: false });
    // By hand: each cell's match means deviate ±0.05, ±0.15 from 0.45: s² = 0.05/3, V = s²/4.
    // R = 1 − JSD/ln 2 and ∂²JSD/∂p² = 1/(4p(1 − p)) at equal rates, so |h| = 1/(4·0.2475·ln 2) per cell;
    // no gradient, so ν = G − 1 = 3, t(3, 0.975) = 3.182446305284263 (scipy); lo = 1 − t² · ½ · 2|h| V.
    const h = 1 / (4 * 0.2475 * Math.LN2), V = 0.05 / 3 / 4;
    expect(iv.hi).toBe(1);
    expect(iv.df).toBe(3);
    expect(iv.lo).toBeCloseTo(1 - 3.182446305284263 ** 2 * h * V, 4);
  });
});

describe('properties', () => {
  it('equal match lengths: V = s²/G of the match means and ν = G − 1, for any outcomes', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.array(fc.nat(), { minLength: 3, maxLength: 30 }), (n, raw) => {
      const sums = raw.map((x) => x % (n + 1));
      const r = cr2Contrast([{ group: 0, column: { sizes: new Float64Array(sums.length).fill(n), sums: Float64Array.from(sums) }, coef: 1 }]);
      const m = sums.map((x) => x / n), G = m.length, mean = m.reduce((a, b) => a + b, 0) / G;
      const s2 = m.reduce((a, b) => a + (b - mean) ** 2, 0) / (G - 1);
      expect(r.variance).toBeCloseTo(s2 / G, 12);
      expect(r.df).toBeCloseTo(G - 1, 9);
    }));
  });
  it('a MOVER shift where one cell has every match alike: d − √((r₂ − l₂)² + (u₁ − r₁)²), d + √((u₂ − r₂)² + (r₁ − l₁)²)', () => {
    const a = col([0.3, 0.5, 0.2, 0.7]), b = col([1, 1, 1]);
    const ia = clusterRateInterval(a), ib = clusterRateInterval(b), d = clusterDifferenceInterval(a, b, false);
    expect(d.kind).toBe('mover');
    expect(d.lo).toBeCloseTo(1 - 0.425 - Math.hypot(1 - ib.lo, ia.hi - 0.425), 12);
    expect(d.hi).toBeCloseTo(Math.min(1, 1 - 0.425 + Math.hypot(ib.hi - 1, 0.425 - ia.lo)), 12);
  });
});
