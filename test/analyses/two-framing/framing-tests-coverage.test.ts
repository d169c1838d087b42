import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { analyzeTwoFraming, framingTestRows } from '../../../src/analyses/two-framing/index.js';
import { jsdBernoulli } from '../../../src/stats/jsd.js';
import { framingTest } from '../../../src/stats/framing-test.js';
import { binomial, generator } from '../../helpers/independent-rng.js';

/**
 * Coverage of the R = 1 test, the bias-corrected R's test-inversion interval and the shift's
 * MOVER-Wilson interval (docs/methods.md §8.5), measured on data from a generator of this file
 * (xoshiro128** uniforms, binomial counts by inversion of a CDF table built in this file: nothing
 * of samegame's sampler or streams). 600 data sets per regime: a coverage of 0.90 has a Monte Carlo
 * SE of 0.012 (0.95: 0.009), so the bound 0.86 is 3.3 SE below the nominal 0.90, and an interval
 * covering 0.80 (the percentile bootstrap's pooled R holds 0–0.78 here) passes it with probability
 * about 1e-4 (SE 0.016 at 0.80: 3.7 SE).
 */
const MODELS = ['m1', 'm2', 'm3'];
const GAMES = ['g1', 'g2', 'g3', 'g4'];

/** One data set: 3 models × 4 games, base and alt rates per pair (in model-major order), n trials per cell. */
function dataSet(u: () => number, base: readonly number[], alt: readonly number[], n: number): CellTable {
  const cells = MODELS.flatMap((model, mi) => GAMES.flatMap((game, gi) => {
    const i = mi * GAMES.length + gi;
    return [
      { key: { model, game, framing: 'b' }, obs: { kind: 'binary' as const, n, x: binomial(u, n, base[i]) } },
      { key: { model, game, framing: 's' }, obs: { kind: 'binary' as const, n, x: binomial(u, n, alt[i]) } },
    ];
  }));
  return { factors: ['model', 'game', 'framing'], cells };
}

interface Tally { rejected: number; R: number; shift: number; modelShift: number; modelR: number; sims: number; pairR: number[]; pairShift: number[] }

function simulate(seed: number, base: readonly number[], alt: readonly number[], n: number, sims: number): Tally {
  const u = generator(seed);
  const meanJsd = (idx: number[]) => idx.reduce((s, i) => s + jsdBernoulli(base[i], alt[i]), 0) / idx.length;
  const meanShift = (idx: number[]) => idx.reduce((s, i) => s + alt[i] - base[i], 0) / idx.length;
  const all = [...base.keys()];
  const byModel = MODELS.map((_, mi) => GAMES.map((_, gi) => mi * GAMES.length + gi));
  const truth = (idx: number[]) => ({ R: 1 - meanJsd(idx) / Math.LN2, shift: meanShift(idx) });
  const groups = [...byModel.map(truth), truth(all)];
  const t: Tally = { rejected: 0, R: 0, shift: 0, modelShift: 0, modelR: 0, sims, pairR: all.map(() => 0), pairShift: all.map(() => 0) };
  const inR = (r: { R_test_lo: number; R_test_hi: number }, v: number) => r.R_test_lo <= v + 1e-12 && v <= r.R_test_hi + 1e-12;
  const inS = (r: { shift_wilson_lo: number; shift_wilson_hi: number }, v: number) => r.shift_wilson_lo <= v + 1e-12 && v <= r.shift_wilson_hi + 1e-12;
  for (let s = 0; s < sims; s++) {
    const a = analyzeTwoFraming(dataSet(u, base, alt, n), { seed: 1, reps: 1, attenuation: 1, base: 'b', alt: 's' });
    const every = framingTestRows(a);
    const rows = every.slice(-4); // the three models, then Pooled
    all.forEach((i) => {
      const p = truth([i]);
      if (inR(every[i], p.R)) t.pairR[i]++;
      if (inS(every[i], p.shift)) t.pairShift[i]++;
    });
    const pooled = rows[3];
    if (pooled.framing_changes_behaviour === 'yes') t.rejected++;
    if (inR(pooled, groups[3].R)) t.R++;
    if (inS(pooled, groups[3].shift)) t.shift++;
    for (let m = 0; m < 3; m++) { if (inS(rows[m], groups[m].shift)) t.modelShift++; if (inR(rows[m], groups[m].R)) t.modelR++; }
  }
  return t;
}

const SIMS = 600;
const flat = (p: number) => Array.from({ length: 12 }, () => p);

// The R interval's ends are one-sided 95 % bounds (a 90 % interval, at the level of the test): ≥ 0.86 is 3.3 SE below 0.90.
describe('pooled R of 12 pairs, base 0.5, alt 0.5 + d: the test-inversion interval holds', () => {
  it.each([[100, 0.05], [100, 0.10], [300, 0.05], [300, 0.10]])('n = %i, d = %f: coverage ≥ 0.86 (nominal 0.90)', (n, d) => {
    const t = simulate(1000 * n + 100 * d, flat(0.5), flat(0.5 + d), n, SIMS);
    const coverage = t.R / t.sims;
    console.log(`pooled R coverage n=${n} d=${d}: ${coverage.toFixed(4)} (model R ${(t.modelR / 3 / t.sims).toFixed(4)}); G-test power ${(t.rejected / t.sims).toFixed(4)}`);
    expect(coverage).toBeGreaterThanOrEqual(0.86);
  });
});

describe('the R = 1 test at d = 0 (framing has no effect)', () => {
  // The pooled G-test alone (no interval), so 10,000 data sets: SE 0.0022 at 5 %.
  it.each([100, 300])('n = %i: rejects in at most 6 % of data sets', (n) => {
    const u = generator(7 + n);
    let rejected = 0;
    const NULL_SIMS = 10_000;
    for (let s = 0; s < NULL_SIMS; s++) {
      const pairs = Array.from({ length: 12 }, () => {
        const xb = binomial(u, n, 0.5), xs = binomial(u, n, 0.5);
        return { xb, nb: n, xs, ns: n, jsd: jsdBernoulli(xb / n, xs / n) };
      });
      if (framingTest(pairs).p < 0.05) rejected++;
    }
    const rate = rejected / NULL_SIMS;
    console.log(`R = 1 test false rejections n=${n}: ${rate.toFixed(4)}`);
    expect(rate).toBeLessThanOrEqual(0.06);
    expect(rate).toBeGreaterThan(0.03); // a test of level 5 %, not a test that never rejects
  });
});

describe('n = 50 with cells at or near 0 (true rates near but not at the boundary)', () => {
  // Many cells come out 0/50; every true rate is inside (0, 1).
  const base = [0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.3, 0.5, 0.01, 0.02, 0.6, 0.9];
  const alt = [0.01, 0.005, 0.05, 0.03, 0.02, 0.2, 0.35, 0.5, 0.04, 0.01, 0.7, 0.97];
  it('R (nominal 0.90) pooled, per model and per pair: coverage ≥ 0.88; the shift (nominal 0.95): ≥ 0.92', () => {
    const t = simulate(50, base, alt, 50, SIMS);
    const [R, S, MS] = [t.R / t.sims, t.shift / t.sims, t.modelShift / 3 / t.sims];
    const pairR = Math.min(...t.pairR) / t.sims, pairS = Math.min(...t.pairShift) / t.sims;
    console.log(`n=50 near 0: pooled R ${R.toFixed(4)}, pooled shift ${S.toFixed(4)}, model shift ${MS.toFixed(4)}, model R ${(t.modelR / 3 / t.sims).toFixed(4)}; the worst pair: R ${pairR.toFixed(4)}, shift ${pairS.toFixed(4)}`);
    expect(R).toBeGreaterThanOrEqual(0.88);
    // Every pair too, two cells at 0/50 included (the percentile bootstrap holds 0.36–0.53 for the first two pairs).
    expect(pairR).toBeGreaterThanOrEqual(0.88);
    expect(pairS).toBeGreaterThanOrEqual(0.92);
    expect(S).toBeGreaterThanOrEqual(0.92);
    expect(MS).toBeGreaterThanOrEqual(0.92);
  });
});
