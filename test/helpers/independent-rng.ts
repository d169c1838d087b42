/**
 * A random-number source for simulation tests that shares nothing with samegame's (sfc32 streams,
 * the guide-table and BTRD binomial samplers): xoshiro128** uniforms and binomial counts by
 * inversion of a CDF table built here, so a coverage measured with it is not samegame checking
 * itself.
 */
export function generator(seed: number): () => number {
  // xoshiro128** (Blackman and Vigna), state from splitmix32 of the seed.
  let z = seed >>> 0;
  const split = () => { z = (z + 0x9e3779b9) >>> 0; let t = z ^ (z >>> 16); t = Math.imul(t, 0x21f0aaad); t ^= t >>> 15; t = Math.imul(t, 0x735a2d97); return (t ^ (t >>> 15)) >>> 0; };
  let a = split(), b = split(), c = split(), d = split();
  return () => {
    const r = Math.imul(((Math.imul(b, 5) << 7) | (Math.imul(b, 5) >>> 25)), 9) >>> 0;
    const t = b << 9;
    c ^= a; d ^= b; b ^= c; a ^= d; c ^= t; d = (d << 11) | (d >>> 21);
    return r / 2 ** 32;
  };
}

const tables = new Map<string, Float64Array>();
/**
 * Binomial(n, p) by inversion of a CDF table built here (one table per (n, p)); as a sum of n
 * Bernoulli trials where (1 − p)ⁿ underflows.
 */
export function binomial(u: () => number, n: number, p: number): number {
  if (!((1 - p) ** n > 1e-300)) { let x = 0; for (let i = 0; i < n; i++) if (u() < p) x++; return x; }
  const key = `${n} ${p}`;
  let cdf = tables.get(key);
  if (!cdf) {
    cdf = new Float64Array(n + 1);
    let pmf = (1 - p) ** n, acc = 0;
    for (let k = 0; k <= n; k++) { acc += pmf; cdf[k] = acc; pmf *= (n - k) / (k + 1) * p / (1 - p); }
    tables.set(key, cdf);
  }
  const v = u() * cdf[n];
  let k = 0;
  while (k < n && cdf[k] <= v) k++;
  return k;
}

