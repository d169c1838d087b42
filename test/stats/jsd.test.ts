import { describe, expect, it } from 'vitest';
import { binaryEntropy, jsdBernoulli, robustness2 } from '../../src/stats/jsd.js';

describe('binaryEntropy', () => {
  it('is 0 at p = 0 and p = 1 (0·ln 0 = 0)', () => {
    expect(binaryEntropy(0)).toBe(0);
    expect(binaryEntropy(1)).toBe(0);
  });
  it('is ln 2 at p = 1/2', () => expect(binaryEntropy(0.5)).toBeCloseTo(Math.LN2, 15));
  it('matches a hand value: H(0.25) = −0.25 ln 0.25 − 0.75 ln 0.75 = 0.5623351446188083', () => {
    expect(binaryEntropy(0.25)).toBeCloseTo(0.5623351446188083, 14);
  });
  it('rejects p outside [0, 1] and NaN', () => {
    expect(() => binaryEntropy(-0.1)).toThrow(RangeError);
    expect(() => binaryEntropy(1.1)).toThrow(RangeError);
    expect(() => binaryEntropy(NaN)).toThrow(RangeError);
  });
});

describe('jsdBernoulli (divergence, natural log)', () => {
  it('is ln 2 between the two point masses', () => {
    expect(jsdBernoulli(0, 1)).toBeCloseTo(Math.LN2, 15);
    expect(jsdBernoulli(1, 0)).toBeCloseTo(Math.LN2, 15);
  });
  it('is 0 between equal distributions, including the degenerate ones', () => {
    for (const p of [0, 0.3, 1]) expect(jsdBernoulli(p, p)).toBe(0);
  });
  it('matches a hand derivation: JSD(0, 1/2) = H(1/4) − H(1/2)/2 = 0.21576155433883568', () => {
    // H(1/4) = 0.5623351446188083, H(1/2)/2 = 0.34657359027997264
    expect(jsdBernoulli(0, 0.5)).toBeCloseTo(0.5623351446188083 - 0.34657359027997264, 14);
  });
  it('is symmetric and never negative for nearly equal inputs', () => {
    expect(jsdBernoulli(0.2, 0.7)).toBe(jsdBernoulli(0.7, 0.2));
    expect(jsdBernoulli(0.3, 0.3 + 1e-15)).toBeGreaterThanOrEqual(0);
  });
});

describe('robustness2', () => {
  it('is 1 for equal and 0 for opposite point masses', () => {
    expect(robustness2(0.4, 0.4)).toBe(1);
    expect(robustness2(0, 1)).toBeCloseTo(0, 15);
  });
  it('reproduces the GPT-4 Prisoner’s Dilemma cell of Same Game, Different Story: 0/300 vs 296/300', () => {
    // p = 0, q = 296/300: JSD = H(q/2) − H(q)/2, computed by hand with q = 0.98666…:
    // H(0.493333) = 0.69305835, H(0.986667) = 0.07126757 → JSD = 0.65742457, R2 = 0.05153...
    const q = 296 / 300;
    const h = (p: number) => -p * Math.log(p) - (1 - p) * Math.log(1 - p);
    expect(robustness2(0, q)).toBeCloseTo(1 - (h(q / 2) - h(q) / 2) / Math.LN2, 14);
    expect(robustness2(0, q)).toBeCloseTo(0.0515, 3);
  });
});
