import { describe, expect, it } from 'vitest';
import { BinomialSampler, binomialPmf } from '../../src/stats/binomial.js';
import { streamFor } from '../../src/stats/rng.js';

/** Exact pmf by integer combinatorics: C(n,k) p^k (1−p)^(n−k), with C from BigInt. */
function exactPmf(n: number, p: number): number[] {
  const out: number[] = [];
  let c = 1n;
  for (let k = 0; k <= n; k++) {
    if (k > 0) c = (c * BigInt(n - k + 1)) / BigInt(k);
    out.push(Number(c) * p ** k * (1 - p) ** (n - k));
  }
  return out;
}

function draws(n: number, p: number, count: number, key: string): number[] {
  const s = new BinomialSampler(n, p);
  const rng = streamFor(123, key);
  const h = new Array(n + 1).fill(0);
  for (let i = 0; i < count; i++) h[s.draw(rng)]++;
  return h;
}

/** Pearson χ² against the exact pmf, pooling bins whose expected count is below 5. */
function chiSquare(h: number[], pmf: number[], total: number): { stat: number; df: number } {
  let stat = 0, df = -1, eAcc = 0, oAcc = 0;
  for (let k = 0; k < pmf.length; k++) {
    eAcc += pmf[k] * total; oAcc += h[k];
    if (eAcc >= 5) { stat += (oAcc - eAcc) ** 2 / eAcc; df++; eAcc = 0; oAcc = 0; }
  }
  if (eAcc > 0) { stat += (oAcc - eAcc) ** 2 / Math.max(eAcc, 1e-300); df++; }
  return { stat, df };
}

describe('binomialPmf', () => {
  it.each([[1, 0.5], [5, 0.3], [20, 0.9], [300, 0.087], [60, 0.5]])('matches exact combinatorics for n=%d, p=%d', (n, p) => {
    const got = binomialPmf(n, p);
    const want = exactPmf(n, p);
    for (let k = 0; k <= n; k++) expect(got[k]).toBeCloseTo(want[k], 12);
  });
  it('is a point mass at 0 for p = 0 and at n for p = 1', () => {
    expect([...binomialPmf(4, 0)]).toEqual([1, 0, 0, 0, 0]);
    expect([...binomialPmf(4, 1)]).toEqual([0, 0, 0, 0, 1]);
  });
  it('does not underflow at the centre for large n', () => {
    const pmf = binomialPmf(200_000, 0.5); // (1/2)^200000 underflows; the centre must not
    expect(pmf[100_000]).toBeCloseTo(1 / Math.sqrt(Math.PI * 100_000), 8);
  });
  it('rejects bad parameters', () => {
    expect(() => binomialPmf(-1, 0.5)).toThrow(RangeError);
    expect(() => binomialPmf(2.5, 0.5)).toThrow(RangeError);
    expect(() => binomialPmf(3, 1.2)).toThrow(RangeError);
  });
});

describe('BinomialSampler is exact', () => {
  const N = 200_000;
  // χ² critical values at α = 0.001 (tables): df 1 → 10.83, 2 → 13.82, 5 → 20.52, 10 → 29.59,
  // 20 → 45.31, 30 → 59.70, 40 → 73.40. Use a generous bound by df.
  const crit = (df: number) => df + 4.5 * Math.sqrt(2 * df) + 10;
  it.each([[1, 0.5], [2, 0.1], [5, 0.3], [10, 0.95], [50, 0.5], [300, 0.087], [300, 0.987]])(
    'n=%d p=%d: χ² against the exact pmf, mean and variance', (n, p) => {
      const h = draws(n, p, N, `chi-${n}-${p}`);
      const { stat, df } = chiSquare(h, exactPmf(n, p), N);
      expect(stat).toBeLessThan(crit(df));
      let m = 0, m2 = 0;
      h.forEach((c, k) => { m += c * k; m2 += c * k * k; });
      m /= N; const v = m2 / N - m * m;
      const sdMean = Math.sqrt((n * p * (1 - p)) / N);
      expect(Math.abs(m - n * p)).toBeLessThan(5 * sdMean + 1e-12);
      // Var of the sample variance ≈ (μ4 − σ⁴)/N; bound it loosely with 4σ⁴·(1+1/(nσ²)) /N
      const s2 = n * p * (1 - p);
      expect(Math.abs(v - s2)).toBeLessThan(6 * Math.sqrt((2 * s2 * s2 + s2) / N) + 1e-12);
    });
  it('total variation to the exact pmf is small for n = 50, p = 0.5 (the biased-library case: mean must be 25)', () => {
    const h = draws(50, 0.5, N, 'tv');
    const pmf = exactPmf(50, 0.5);
    const tv = 0.5 * pmf.reduce((s, q, k) => s + Math.abs(h[k] / N - q), 0);
    expect(tv).toBeLessThan(0.01);
  });
  it('p = 0 always gives 0 and p = 1 always gives n', () => {
    const z = draws(7, 0, 1000, 'z');
    const o = draws(7, 1, 1000, 'o');
    expect(z[0]).toBe(1000);
    expect(o[7]).toBe(1000);
  });
  it('n = 0 gives 0', () => {
    const s = new BinomialSampler(0, 0.5);
    expect(s.draw(streamFor(1, 'x'))).toBe(0);
  });
});

describe('BinomialSampler fast path', () => {
  /** A source replaying given 32-bit words. */
  const replay = (words: number[]) => {
    let i = 0;
    return { next: () => { throw new Error('unused'); }, nextUint32: () => words[i++] ?? 0, fillUint32: () => { throw new Error('unused'); } };
  };
  /** Reference: smallest k with CDF(k) > u for the full 53-bit u = (hi·2^21 + lo>>>11)/2^53. */
  const reference = (n: number, p: number, hi: number, lo: number) => {
    const pmf = binomialPmf(n, p);
    const cdf: number[] = [];
    let c = 0;
    for (let k = 0; k <= n; k++) { c += pmf[k]; cdf.push(c); }
    cdf[n] = 1;
    const u = (hi * 2097152 + (lo >>> 11)) / 9007199254740992;
    return cdf.findIndex((x) => x > u);
  };
  it('equals the 53-bit inverse CDF, also for 32-bit words right at the CDF steps', () => {
    for (const [n, p] of [[300, 0.087], [10, 0.5], [1, 0.3], [50, 0.999]] as const) {
      const s = new BinomialSampler(n, p);
      const pmf = binomialPmf(n, p);
      const words: [number, number][] = [];
      let c = 0;
      for (let k = 0; k < n; k++) {
        c += pmf[k];
        const step = Math.floor(c * 4294967296); // the 32-bit word whose interval holds CDF(k)
        for (const hi of [step - 1, step, step + 1]) if (hi >= 0 && hi < 4294967296) words.push([hi, 0], [hi, 0xffffffff], [hi, 0x80000000]);
      }
      const r = streamFor(9, `fast-${n}`);
      for (let i = 0; i < 2000; i++) words.push([r.nextUint32(), r.nextUint32()]);
      for (const [hi, lo] of words) expect(s.draw(replay([hi, lo]))).toBe(reference(n, p, hi, lo));
    }
  });
});
