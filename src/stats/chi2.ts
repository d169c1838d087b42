/**
 * Chi-squared distributions, central and noncentral (docs/methods.md §8.5): the regularized
 * incomplete gamma function (Numerical Recipes, 3rd ed., §6.2: series below a + 1, Lentz's
 * continued fraction above), the noncentral CDF as the Poisson mixture of central ones
 * (Johnson, Kotz and Balakrishnan, Continuous Univariate Distributions 2, ch. 29), and the
 * confidence interval for a noncentrality parameter by inverting that CDF.
 */
import { bisect, bracketAbove } from './bisect.js';

const LANCZOS = [676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];

/** ln Γ(x) for x > 0 (Lanczos, g = 7; relative error about 1e-15). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const y = x - 1;
  let s = 0.99999999999980993;
  for (let i = 0; i < LANCZOS.length; i++) s += LANCZOS[i] / (y + i + 1);
  const t = y + LANCZOS.length - 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(s);
}

const EPS = 1e-16;

/** Regularized lower incomplete gamma P(a, x) = γ(a, x)/Γ(a), a > 0, x ≥ 0. */
export function gammaP(a: number, x: number): number {
  if (!(a > 0) || !(x >= 0)) return NaN;
  if (x === 0) return 0;
  if (x < a + 1) {
    const front = Math.exp(a * Math.log(x) - x - logGamma(a));
    let term = 1 / a, sum = term;
    for (let n = 1; n < 100_000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPS) break;
    }
    return Math.min(1, sum * front);
  }
  return Math.max(0, 1 - upperGamma(a, x));
}

/** P(χ²_k ≤ x). */
export function chi2Cdf(x: number, k: number): number {
  return x <= 0 ? 0 : gammaP(k / 2, x / 2);
}

/** P(χ²_k > x), the p-value of a chi-squared statistic x on k degrees of freedom. */
export function chi2Sf(x: number, k: number): number {
  if (x <= 0) return 1;
  const a = k / 2, h = x / 2;
  // Above the mean take Q directly from the series/fraction complement without cancellation.
  return h < a + 1 ? 1 - gammaP(a, h) : upperGamma(a, h);
}

/** Q(a, x) by the continued fraction (x ≥ a + 1), accurate for tiny tails. */
function upperGamma(a: number, x: number): number {
  const front = Math.exp(a * Math.log(x) - x - logGamma(a));
  const tiny = 1e-300;
  let b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (let i = 1; i < 100_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b; if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c; if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return front * h;
}

/**
 * P(χ²_k(λ) ≤ x) for noncentrality λ ≥ 0: Σ_j Pois(j; λ/2) · P(k/2 + j, x/2), summed outward from
 * the Poisson mode with the recurrences P(a + 1, y) = P(a, y) − yᵃe^{−y}/Γ(a + 1), until the
 * remaining Poisson mass is below 1e-15.
 */
export function ncChi2Cdf(x: number, k: number, lambda: number): number {
  if (x <= 0) return 0;
  if (lambda <= 0) return chi2Cdf(x, k);
  const mu = lambda / 2, y = x / 2;
  const j0 = Math.floor(mu);
  const w0 = Math.exp(-mu + j0 * Math.log(mu) - logGamma(j0 + 1));
  const a0 = k / 2 + j0;
  const p0 = gammaP(a0, y);
  const t0 = Math.exp(a0 * Math.log(y) - y - logGamma(a0 + 1)); // yᵃ⁰e^{−y}/Γ(a0 + 1)
  let sum = w0 * p0, mass = w0;
  // Upward: j = j0 + 1, …
  let w = w0, p = p0, t = t0;
  for (let j = j0 + 1; ; j++) {
    const a = k / 2 + j - 1;
    p = Math.max(0, p - t);
    t *= y / (a + 1);
    w *= mu / j;
    sum += w * p; mass += w;
    if (w < 1e-17 || p === 0 || 1 - mass < 1e-15) break;
  }
  // Downward: j = j0 − 1, …, 0.
  w = w0; p = p0; t = t0;
  for (let j = j0 - 1; j >= 0; j--) {
    const a = k / 2 + j; // P(a, y) = P(a + 1, y) + yᵃe^{−y}/Γ(a + 1)
    t *= (a + 1) / y;
    p = Math.min(1, p + t);
    w *= (j + 1) / mu;
    sum += w * p; mass += w;
    if (w < 1e-17 || 1 - mass < 1e-15) break;
  }
  return Math.min(1, Math.max(0, sum));
}

/**
 * The (level) confidence interval for the noncentrality λ of an observed χ²_k(λ) statistic x,
 * by test inversion: λ_lo solves P(χ²_k(λ) ≤ x) = 1 − α/2 (0 when even λ = 0 gives less), λ_hi
 * solves P(χ²_k(λ) ≤ x) = α/2 (0 when λ = 0 gives less). The CDF falls as λ grows, so each is
 * one bisection. x = 0 gives [0, 0].
 */
export function noncentralityInterval(x: number, k: number, level = 0.95): [number, number] {
  const alpha = (1 - level) / 2;
  const solve = (target: number): number => {
    if (!(chi2Cdf(x, k) > target)) return 0;
    const below = (lambda: number) => ncChi2Cdf(x, k, lambda) > target;
    const { lo, hi } = bracketAbove(below, 0, Math.max(1, 2 * x), Infinity);
    return bisect(below, lo, hi, { rel: 1e-10, abs: 1e-10, maxIter: 200 });
  };
  return [solve(1 - alpha), solve(alpha)];
}

/** The q quantile of χ²_k (bisection on chi2Cdf to 1e-12 relative). */
export function chi2Quantile(q: number, k: number): number {
  const below = (x: number) => chi2Cdf(x, k) < q;
  const { lo, hi } = bracketAbove(below, 0, Math.max(1, k), Infinity);
  return bisect(below, lo, hi, { rel: 1e-12, maxIter: 200 });
}
