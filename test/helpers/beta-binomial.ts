import { uniforms } from './uniforms.js';

/**
 * An independent generator of clustered decisions for simulation tests: match j's rate is drawn
 * from Beta(p(1 − ρ)/ρ, (1 − p)(1 − ρ)/ρ) (mean p, intra-match correlation ρ), then each of its
 * decisions is 1 with that rate (a beta-binomial). Beta draws as X/(X + Y) of two gamma draws
 * (Marsaglia & Tsang 2000, with the u^(1/a) boost below shape 1); normals by Box–Muller. Nothing
 * of samegame's own samplers is used.
 */
export function betaBinomialMatches(seed: number): (matches: number, rounds: number, p: number, rho: number) => { sizes: Float64Array; sums: Float64Array } {
  return testSampler(seed).matches;
}

/** The generator's parts: Beta(a, b) draws, Binomial(n, p) as n Bernoulli draws, and beta-binomial matches. */
export function testSampler(seed: number) {
  const u = uniforms(seed);
  const uniform = () => { let x = u(); while (x === 0) x = u(); return x; };
  const normal = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * u());
  const gamma = (a: number): number => {
    if (a < 1) return gamma(a + 1) * uniform() ** (1 / a);
    const d = a - 1 / 3, c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number, v: number;
      do { x = normal(); v = 1 + c * x; } while (v <= 0);
      v = v * v * v;
      const w = uniform();
      if (w < 1 - 0.0331 * x ** 4 || Math.log(w) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
    }
  };
  const beta = (a: number, b: number) => { const x = gamma(a), y = gamma(b); return x / (x + y); };
  const binomial = (n: number, p: number) => { let k = 0; for (let i = 0; i < n; i++) if (u() < p) k++; return k; };
  const matches = (count: number, rounds: number, p: number, rho: number) => {
    const a = (p * (1 - rho)) / rho, b = ((1 - p) * (1 - rho)) / rho;
    const sizes = new Float64Array(count).fill(rounds), sums = new Float64Array(count);
    for (let j = 0; j < count; j++) sums[j] = binomial(rounds, beta(a, b));
    return { sizes, sums };
  };
  return { beta, binomial, matches };
}
