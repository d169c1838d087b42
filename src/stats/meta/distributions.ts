/**
 * The distributions of the meta-analytic tests: Student t (Hartung–Knapp intervals, prediction
 * intervals), χ² (Cochran's Q, the Wald test of moderators) and F (the moderators' test with
 * Hartung–Knapp). All are regularized incomplete beta or gamma functions, evaluated by their
 * series and continued fractions (Abramowitz & Stegun 6.5, 26.5.8) to about 1e-14 relative.
 */
import { normalCdf, normalQuantile } from '../normal.js';

const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];

/** ln Γ(x) for x > 0 (Lanczos, g = 7; about 1e-15 relative). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

const TINY = 1e-300;
const EPS = 1e-16;

/** The continued fraction of the incomplete beta function (modified Lentz). */
function betaFraction(a: number, b: number, x: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = Math.abs(d) < TINY ? 1 / TINY : 1 / d;
  let f = d;
  for (let m = 1; m < 10_000; m++) {
    const m2 = 2 * m;
    let num = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + num * d; d = Math.abs(d) < TINY ? 1 / TINY : 1 / d;
    c = 1 + num / c; if (Math.abs(c) < TINY) c = TINY;
    f *= d * c;
    num = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + num * d; d = Math.abs(d) < TINY ? 1 / TINY : 1 / d;
    c = 1 + num / c; if (Math.abs(c) < TINY) c = TINY;
    const delta = d * c;
    f *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return f;
}

/** The regularized incomplete beta function I_x(a, b). */
export function betaRegularized(x: number, a: number, b: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(a, b, x)) / a;
  return 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** The regularized upper incomplete gamma function Q(a, x) = Γ(a, x)/Γ(a). */
export function gammaUpperRegularized(a: number, x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x <= 0) return 1;
  const front = Math.exp(-x + a * Math.log(x) - logGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 10_000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPS) break;
    }
    return 1 - front * sum;
  }
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b; d = Math.abs(d) < TINY ? 1 / TINY : 1 / d;
    c = b + an / c; if (Math.abs(c) < TINY) c = TINY;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return front * h;
}

/** P(χ²_df > q). */
export const chiSquareUpper = (q: number, df: number): number => (df > 0 ? gammaUpperRegularized(df / 2, q / 2) : NaN);

/** P(F_{d1, d2} > f). */
export function fUpper(f: number, d1: number, d2: number): number {
  if (!(f > 0)) return f <= 0 ? 1 : NaN;
  return betaRegularized(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);
}

/** P(T_df ≤ t) for Student's t with df > 0 degrees of freedom (df = ∞: the normal). */
export function tCdf(t: number, df: number): number {
  if (df === Infinity) return normalCdf(t);
  if (Number.isNaN(t) || !(df > 0)) return NaN;
  const tail = 0.5 * betaRegularized(df / (df + t * t), df / 2, 0.5);
  return t < 0 ? tail : 1 - tail;
}

/** Two-sided p-value of a t (df finite) or z (df = ∞) statistic. */
export function twoSidedP(stat: number, df: number): number {
  if (Number.isNaN(stat)) return NaN;
  if (df === Infinity) return 2 * normalCdf(-Math.abs(stat));
  return betaRegularized(df / (df + stat * stat), df / 2, 0.5);
}

/** The p-quantile of Student's t with df degrees of freedom (df = ∞: the normal), by safeguarded Newton. */
export function tQuantile(p: number, df: number): number {
  if (df === Infinity) return normalQuantile(p);
  if (!(df > 0) || !(p > 0 && p < 1)) return NaN;
  if (p < 0.5) return -tQuantile(1 - p, df);
  let lo = 0;
  let hi = 1;
  while (tCdf(hi, df) < p) { lo = hi; hi *= 2; }
  let x = Math.max(lo, Math.min(hi, normalQuantile(p)));
  const logC = logGamma((df + 1) / 2) - logGamma(df / 2) - 0.5 * Math.log(df * Math.PI);
  for (let i = 0; i < 200; i++) {
    const f = tCdf(x, df) - p;
    if (f > 0) hi = x; else lo = x;
    const dens = Math.exp(logC - ((df + 1) / 2) * Math.log1p((x * x) / df));
    let next = x - f / dens;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - x) <= 1e-15 * Math.max(1, Math.abs(x))) return next;
    x = next;
  }
  return x;
}
