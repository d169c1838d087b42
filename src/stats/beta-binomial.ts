/**
 * Clustered decisions for simulation (docs/methods.md §17): the within-match correlation of a set
 * of clustered cells (the one-way ANOVA estimator, pooled over cells), and beta-binomial draws of a
 * cell's matches with that correlation — match j's rate from Beta(p(1 − ρ)/ρ, (1 − p)(1 − ρ)/ρ),
 * then Binomial(n_j, rate) decisions — and of a cell's true rate around its observed one (the
 * Jeffreys posterior on the cell's effective sample size).
 */
import { binomialSampler } from './binomial.js';
import type { RandomSource } from './rng.js';

/** Cluster sizes and outcome sums of one cell. */
export interface ClusterCounts {
  readonly sizes: ArrayLike<number>;
  readonly sums: ArrayLike<number>;
}

/**
 * The intra-cluster correlation by the one-way ANOVA estimator (Fleiss), pooled over cells:
 * ρ̂ = (MSB − MSW) / (MSB + (n₀ − 1) MSW) with the between- and within-match mean squares summed
 * over cells (each cell around its own rate) and n₀ the size-adjusted mean match length; clipped
 * to [0, 0.99]; 0 when no cell has two matches or no decision varies.
 */
export function pooledIcc(cells: readonly ClusterCounts[]): number {
  let ssb = 0, ssw = 0, dfb = 0, dfw = 0, n0num = 0, n0den = 0;
  for (const c of cells) {
    const m = c.sizes.length;
    let N = 0, S = 0, sq = 0;
    for (let j = 0; j < m; j++) { N += c.sizes[j]; S += c.sums[j]; sq += c.sizes[j] ** 2; }
    if (m < 2 || N <= m) continue;
    const r = S / N;
    for (let j = 0; j < m; j++) {
      const n = c.sizes[j];
      if (n === 0) continue;
      const mean = c.sums[j] / n;
      ssb += n * (mean - r) ** 2;
      ssw += c.sums[j] * (1 - mean) ** 2 + (n - c.sums[j]) * mean ** 2; // Σ (y − mean)² of 0/1 (or fractional-sum) outcomes
    }
    dfb += m - 1; dfw += N - m;
    n0num += N - sq / N; n0den += m - 1;
  }
  if (dfb === 0 || dfw === 0) return 0;
  const msb = ssb / dfb, msw = ssw / dfw, n0 = n0num / n0den;
  const denom = msb + (n0 - 1) * msw;
  if (!(denom > 0)) return 0;
  return Math.min(0.99, Math.max(0, (msb - msw) / denom));
}

/** A standard normal (Box–Muller; one of the pair). */
function normal(rng: RandomSource): number {
  let u = rng.next();
  while (u === 0) u = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/** A Gamma(a, 1) draw (Marsaglia & Tsang 2000; below shape 1 the u^(1/a) boost). */
export function gammaDraw(a: number, rng: RandomSource): number {
  if (a < 1) { let u = rng.next(); while (u === 0) u = rng.next(); return gammaDraw(a + 1, rng) * u ** (1 / a); }
  const d = a - 1 / 3, c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number, v: number;
    do { x = normal(rng); v = 1 + c * x; } while (v <= 0);
    v = v * v * v;
    const u = rng.next();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** A Beta(a, b) draw as X/(X + Y) of two gamma draws. */
export function betaDraw(a: number, b: number, rng: RandomSource): number {
  const x = gammaDraw(a, rng), y = gammaDraw(b, rng);
  return x + y > 0 ? x / (x + y) : a / (a + b);
}

/** One cell's decisions drawn again: the same match sizes, match rates beta-distributed around p with correlation ρ. */
export function drawMatches(sizes: ArrayLike<number>, p: number, rho: number, rng: RandomSource): Float64Array {
  const sums = new Float64Array(sizes.length);
  const a = (p * (1 - rho)) / rho, b = ((1 - p) * (1 - rho)) / rho;
  for (let j = 0; j < sizes.length; j++) {
    const q = rho > 0 && p > 0 && p < 1 ? betaDraw(a, b, rng) : p;
    sums[j] = binomialSampler(sizes[j], q).draw(rng);
  }
  return sums;
}

/**
 * A true rate drawn around an observed one: the Jeffreys posterior Beta(x + ½, n − x + ½) of x
 * successes in n decisions, on the effective sample size n = N / (1 + (n̄ − 1)ρ) of a clustered
 * cell (N decisions, mean match length n̄), so a cell observed at 0/n still varies.
 */
export function jeffreysTruth(rate: number, decisions: number, meanLength: number, rho: number, rng: RandomSource): number {
  const n = decisions / (1 + (meanLength - 1) * rho);
  const x = rate * n;
  return betaDraw(x + 0.5, n - x + 0.5, rng);
}
