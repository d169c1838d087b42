/**
 * The standard normal distribution function Φ and its inverse, to about 1e-15 relative accuracy
 * (scipy.special.ndtr and ndtri agree to that; test/stats/bca.test.ts checks values from scipy).
 */

const SQRT1_2 = Math.SQRT1_2;
const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);

/** erf(x) by its Maclaurin series, for |x| < 2 (terms stay below e^4, so ~1e-15 is kept). */
function erfSeries(x: number): number {
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let n = 1; n < 200; n++) {
    term *= -x2 / n;
    const t = term / (2 * n + 1);
    sum += t;
    if (Math.abs(t) < 1e-17 * Math.abs(sum)) break;
  }
  return TWO_OVER_SQRT_PI * sum;
}

/** erfc(x) for x ≥ 2 by its continued fraction (modified Lentz). */
function erfcContinuedFraction(x: number): number {
  // erfc(x) = exp(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …)))))
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < 500; k++) {
    const a = k / 2;
    d = x + a * d;
    d = d === 0 ? tiny : 1 / d;
    c = x + a / c;
    if (c === 0) c = tiny;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

/** erfc(x) = 1 − erf(x), accurate in both tails. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x >= 2) return x > 27 ? 0 : erfcContinuedFraction(x);
  if (x <= -2) return 2 - (x < -27 ? 0 : erfcContinuedFraction(-x));
  return 1 - erfSeries(x);
}

/** Φ(z), the standard normal distribution function (scipy.special.ndtr). */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z * SQRT1_2);
}

// Acklam's rational approximation of Φ⁻¹ (relative error 1.15e-9), then one Halley step on Φ.
const A = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00];
const B = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01];
const C = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00];
const D = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00];

function acklam(p: number): number {
  const low = 0.02425;
  if (p < low || p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(p < low ? p : 1 - p));
    const x = (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1);
    return p < low ? x : -x;
  }
  const q = p - 0.5;
  const r = q * q;
  return (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1);
}

/** Φ⁻¹(p) (scipy.special.ndtri): −∞ at 0, +∞ at 1, NaN outside [0, 1]. */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  let x = acklam(p);
  // Halley refinement: the error of Φ(x) − p, measured on the smaller tail for accuracy.
  const e = x < 0 ? normalCdf(x) - p : (1 - p) - normalCdf(-x);
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  x -= u / (1 + (x * u) / 2);
  return x;
}

/** Φ⁻¹(0.975), the z of a two-sided 95 % normal interval (scipy.special.ndtri(0.975)). */
export const Z95 = 1.959963984540054;
/** Φ⁻¹(0.95), the z of a two-sided 90 % interval (one-sided 95 %; scipy.special.ndtri(0.95)). */
export const Z90 = 1.6448536269514722;
/** Φ⁻¹(0.995), the z of a two-sided 99 % interval (scipy.special.ndtri(0.995)). */
export const Z99 = 2.5758293035489004;

/** A RangeError unless level is a number strictly between 0 and 1 (a string such as "0.95" is refused: comparisons coerce it). */
export function checkLevel(level: number, where: string): void {
  if (typeof level !== 'number' || !(level > 0 && level < 1)) {
    throw new RangeError(`${where}: the confidence level must lie strictly between 0 and 1; got ${level}`);
  }
}
