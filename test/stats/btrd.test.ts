import { describe, expect, it } from 'vitest';
import { BtrdSampler, stirlingCorrection } from '../../src/stats/btrd.js';
import { BINOMIAL_TABLE_MAX_N, BinomialSampler, binomialSampler } from '../../src/stats/binomial.js';
import { streamFor } from '../../src/stats/rng.js';

/**
 * The reference pmf on a window [lo, hi] around the mean, from the ratio P(k+1)/P(k) =
 * (n−k)/(k+1) · p/(1−p) started at the mode and normalized over the window (the mass outside
 * ±9 sd is below 1e-18, so the window holds all of it to double precision).
 */
function windowPmf(n: number, p: number): { lo: number; pmf: number[] } {
  const sd = Math.sqrt(n * p * (1 - p));
  const mode = Math.floor((n + 1) * p);
  const lo = Math.max(0, Math.floor(n * p - 9 * sd - 20)), hi = Math.min(n, Math.ceil(n * p + 9 * sd + 20));
  const w = new Array(hi - lo + 1).fill(0);
  const odds = p / (1 - p);
  w[mode - lo] = 1;
  for (let k = mode; k < hi; k++) w[k + 1 - lo] = w[k - lo] * ((n - k) / (k + 1)) * odds;
  for (let k = mode; k > lo; k--) w[k - 1 - lo] = w[k - lo] * (k / (n - k + 1)) / odds;
  const total = w.reduce((s, x) => s + x, 0);
  return { lo, pmf: w.map((x) => x / total) };
}

/** Pearson χ² of draws against the window pmf, pooling neighbouring bins until each expects ≥ 5. */
function chiSquare(n: number, p: number, draws: number[]): { stat: number; df: number } {
  const { lo, pmf } = windowPmf(n, p);
  const h = new Array(pmf.length).fill(0);
  for (const k of draws) {
    if (k < lo || k >= lo + pmf.length) throw new Error(`draw ${k} outside the ±9 sd window`);
    h[k - lo]++;
  }
  let stat = 0, df = -1, e = 0, o = 0;
  for (let i = 0; i < pmf.length; i++) {
    e += pmf[i] * draws.length; o += h[i];
    if (e >= 5) { stat += (o - e) ** 2 / e; df++; e = 0; o = 0; }
  }
  if (e > 0) { stat += (o - e) ** 2 / Math.max(e, 1e-300); df++; }
  return { stat, df };
}

const sample = (n: number, p: number, count: number, key: string) => {
  const s = new BtrdSampler(n, p);
  const rng = streamFor(321, key);
  return Array.from({ length: count }, () => s.draw(rng));
};
// χ² at α = 0.001 is below df + 4.5·√(2 df) + 10 for every df used here (tables: df 30 → 59.7).
const crit = (df: number) => df + 4.5 * Math.sqrt(2 * df) + 10;

describe('BtrdSampler is exact', () => {
  const N = 200_000;
  it.each([[1000, 0.3], [500, 0.02], [20_000, 0.9], [100_000, 0.5], [1_000_000, 0.087], [1_000_000, 5e-6], [1_000_000, 1 - 3e-6], [1e9, 0.3]])(
    'n=%d p=%d: χ² against the exact pmf, and the mean', (n, p) => {
      const d = sample(n, p, N, `btrd-${n}-${p}`);
      const { stat, df } = chiSquare(n, p, d);
      expect(df).toBeGreaterThan(0);
      expect(stat).toBeLessThan(crit(df));
      const mean = d.reduce((s, x) => s + x, 0) / N;
      expect(Math.abs(mean - n * p)).toBeLessThan(5 * Math.sqrt((n * p * (1 - p)) / N) + 1e-9);
    });

  it('total variation to the exact pmf is small (n = 100,000, p = 0.5, bins of 10 counts)', () => {
    const n = 100_000, p = 0.5;
    const d = sample(n, p, N, 'tv');
    const { lo, pmf } = windowPmf(n, p);
    const bins = new Map<number, number>();
    pmf.forEach((q, i) => bins.set(Math.floor((lo + i) / 10), (bins.get(Math.floor((lo + i) / 10)) ?? 0) + q));
    const seen = new Map<number, number>();
    for (const k of d) seen.set(Math.floor(k / 10), (seen.get(Math.floor(k / 10)) ?? 0) + 1);
    let tv = 0;
    for (const [b, q] of bins) tv += Math.abs((seen.get(b) ?? 0) / N - q);
    expect(tv / 2).toBeLessThan(0.02);
  });

  it('n = 2^53 − 1 draws in O(1) memory, inside [0, n], around n/2', () => {
    const n = Number.MAX_SAFE_INTEGER;
    const d = sample(n, 0.5, 2000, 'huge');
    const sd = Math.sqrt(n / 4);
    for (const k of d) { expect(Number.isInteger(k)).toBe(true); expect(Math.abs(k - n / 2)).toBeLessThan(7 * sd); }
    const mean = d.reduce((s, x) => s + (x - n / 2), 0) / d.length;
    expect(Math.abs(mean)).toBeLessThan(5 * sd / Math.sqrt(d.length));
  });

  it('p = 0, p = 1 and n = 0 are point masses', () => {
    expect(sample(1e7, 0, 50, 'z').every((k) => k === 0)).toBe(true);
    expect(sample(1e7, 1, 50, 'o').every((k) => k === 1e7)).toBe(true);
    expect(sample(0, 0.4, 50, 'e').every((k) => k === 0)).toBe(true);
  });

  it('the Stirling correction fc(k) = ln k! − (k + ½) ln(k + 1) + (k + 1) − ½ ln 2π', () => {
    let lnFact = 0;
    for (let k = 0; k <= 300; k++) {
      if (k > 0) lnFact += Math.log(k);
      const want = lnFact - ((k + 0.5) * Math.log(k + 1) - (k + 1) + 0.5 * Math.log(2 * Math.PI));
      // The reference sums 300 logarithms: its own rounding reaches a few 1e-11 at k = 300.
      expect(Math.abs(stirlingCorrection(k) - want)).toBeLessThan(k < 10 ? 1e-14 : 1e-10);
    }
  });
});

describe('binomialSampler', () => {
  it('keeps the table sampler (and so every draw) up to BINOMIAL_TABLE_MAX_N and uses BTRD above', () => {
    expect(binomialSampler(300, 0.1)).toBeInstanceOf(BinomialSampler);
    expect(binomialSampler(BINOMIAL_TABLE_MAX_N, 0.1)).toBeInstanceOf(BinomialSampler);
    expect(binomialSampler(BINOMIAL_TABLE_MAX_N + 1, 0.1)).toBeInstanceOf(BtrdSampler);
  });
});
