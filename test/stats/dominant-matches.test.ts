import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clusterDifferenceInterval, clusterRateInterval, dominated } from '../../src/stats/cluster-intervals.js';
import { testSampler } from '../helpers/beta-binomial.js';
import { uniforms } from '../helpers/uniforms.js';

/**
 * One match holding most decisions (docs/methods.md §8.3, "One dominant match"): the shift of two
 * cells whose matches are one 50–70-round match and G − 1 of 1–3 rounds, from an independent numpy
 * generator (test/reference/dominant_matches.py, 300 data sets per regime: a coverage of 0.95 has a
 * Monte Carlo SE of 0.013, so 0.90 lies about 4 SE below) and from the test's own TS generator
 * (test/helpers/beta-binomial.ts); and the shift's width near 1 with few balanced matches against
 * the Welch interval on match means the numpy script computed.
 */
interface Col { sizes: number[]; sums: number[] }
interface ShiftRegime { name: string; base: number; alt: number; icc: number; G: number; sets: Col[][] }
interface NearRegime { name: string; base: number; alt: number; G: number; sets: { cells: Col[]; welch: [number, number] | null }[] }
const REF = JSON.parse(readFileSync(new URL('../reference/dominant_matches.json', import.meta.url), 'utf8')) as { shift: ShiftRegime[]; near: NearRegime[] };

function coverage(sets: readonly (readonly Col[])[], truth: number): { coverage: number; none: number; means: number } {
  let covered = 0, none = 0, means = 0;
  for (const [a, b] of sets) {
    const iv = clusterDifferenceInterval(a, b, false);
    if (iv.kind === 'none') { none++; continue; }
    if (iv.kind === 'means') means++;
    if (iv.lo <= truth + 1e-12 && truth <= iv.hi + 1e-12) covered++;
  }
  const shown = sets.length - none;
  return { coverage: shown ? covered / shown : NaN, none: none / sets.length, means: means / sets.length };
}

describe('a shift with one dominant match (numpy generator): coverage ≥ 0.90, or no interval in ≥ 95 % of data sets', () => {
  for (const r of REF.shift) {
    it(r.name, () => {
      const m = coverage(r.sets, r.alt - r.base);
      console.log(`${r.name}, G = ${r.G}: coverage ${m.coverage.toFixed(3)}; on match means ${m.means.toFixed(3)}; no interval ${m.none.toFixed(3)}`);
      if (m.none < 0.95) expect(m.coverage).toBeGreaterThanOrEqual(0.9);
      else expect(m.none).toBeGreaterThanOrEqual(0.95);
    });
  }
});

describe('the same on the test\'s own generator', () => {
  for (const G of [6, 8]) {
    it(`G = ${G}, 0.3 → 0.45, ICC 0.3, 400 data sets`, () => {
      const gen = testSampler(700 + G), u = uniforms(900 + G);
      const cell = (p: number): Col => {
        const lengths = [50 + Math.floor(21 * u()), ...Array.from({ length: G - 1 }, () => 1 + Math.floor(3 * u()))];
        const sums = lengths.map((n) => gen.matches(1, n, p, 0.3).sums[0]);
        return { sizes: lengths, sums };
      };
      const sets = Array.from({ length: 400 }, () => [cell(0.3), cell(0.45)]);
      expect(sets.every(([a, b]) => dominated(a) && dominated(b))).toBe(true);
      const m = coverage(sets, 0.15);
      console.log(`own generator, G = ${G}: coverage ${m.coverage.toFixed(3)}; no interval ${m.none.toFixed(3)}`);
      expect(m.none).toBe(0);
      expect(m.coverage).toBeGreaterThanOrEqual(0.9);
    });
  }
  it('a dominated rate\'s interval is the t interval on the match means (scipy numbers)', () => {
    // matches of 60, 5, 5, 2 rounds at 33, 2, 3, 1: pooled 39/72; match means 0.55, 0.4, 0.6, 0.5, (Σn)²/Σn² = 5184/3654;
    // mean 0.5125 ± t(0.975, 3) · s/√4 = [0.3766234558101992, 0.6483765441898007] (scipy.stats.t), which holds 39/72
    const iv = clusterRateInterval({ sizes: [60, 5, 5, 2], sums: [33, 2, 3, 1] });
    expect(iv.kind).toBe('means');
    expect(iv.point).toBeCloseTo(39 / 72, 12);
    expect(iv.lo).toBeCloseTo(0.3766234558101992, 9);
    expect(iv.hi).toBeCloseTo(0.6483765441898007, 9);
    expect(iv.df).toBeCloseTo(3, 9);
  });
  it('widened to hold the pooled point when the match means lie away from it', () => {
    // the same with the long match at 54/60: pooled 60/72 = 0.833…, match means 0.9, 0.4, 0.6, 0.5
    const iv = clusterRateInterval({ sizes: [60, 5, 5, 2], sums: [54, 2, 3, 1] });
    const m = [0.9, 0.4, 0.6, 0.5], mean = 0.6, s = Math.sqrt(m.reduce((t, x) => t + (x - mean) ** 2, 0) / 3);
    expect(iv.lo).toBeCloseTo(mean - 3.1824463052837078 * s / 2, 9);
    expect(iv.hi).toBeCloseTo(Math.max(60 / 72, mean + 3.1824463052837078 * s / 2), 9);
  });
});

describe('shift near 1 with few balanced matches: no wider than 1.3× the Welch interval on match means', () => {
  for (const r of REF.near) {
    it(r.name, () => {
      let ours = 0, welch = 0, covered = 0, n = 0;
      for (const s of r.sets) {
        if (!s.welch) continue;
        const iv = clusterDifferenceInterval(s.cells[0], s.cells[1], false);
        ours += iv.hi - iv.lo; welch += s.welch[1] - s.welch[0]; n++;
        if (iv.lo <= 1e-12 && -1e-12 <= iv.hi) covered++;
      }
      console.log(`${r.name}: mean width ${(ours / n).toFixed(4)} vs Welch ${(welch / n).toFixed(4)} (ratio ${(ours / welch).toFixed(3)}), coverage ${(covered / n).toFixed(3)} over ${n}`);
      expect(ours / welch).toBeLessThanOrEqual(1.3);
      expect(covered / n).toBeGreaterThanOrEqual(0.9);
    });
  }
});
