/**
 * The Q-profile confidence interval of τ² (Viechtbauer 2007, *Stat. Med.* 26; metafor's
 * confint(rma)): the τ² at which the generalized Q, Σ wᵢ(τ²) rᵢ(τ²)² with wᵢ = 1/(vᵢ + τ²), equals
 * the upper and the lower α/2 quantile of χ²_{k−p} (Q falls as τ² grows); a bound is 0 when Q(0)
 * is already below its quantile. I² and H² follow from the bounds through the typical within-effect
 * variance ṽ: I² = τ²/(τ² + ṽ), H² = (τ² + ṽ)/ṽ. On the problem scaled as the fits are (scale.ts).
 */
import { bisect, bracketAbove } from '../bisect.js';
import { chi2Quantile } from '../chi2.js';
import { scaledProblem } from './scale.js';
import { checkLevel } from '../normal.js';
import { interceptOnly, traceP, weightedSum, weights, wls, type Design } from './wls.js';

export interface Tau2Interval {
  readonly tau2_lo: number;
  readonly tau2_hi: number;
  readonly I2_lo: number;
  readonly I2_hi: number;
  readonly H2_lo: number;
  readonly H2_hi: number;
}

/** The τ² ≥ 0 at which Q(τ²) = target (Q falling), 0 when Q(0) ≤ target; bisection to 1e-13 relative. */
function solve(q: (t: number) => number, target: number): number {
  if (!(q(0) > target)) return 0;
  const below = (t: number) => q(t) > target;
  const { lo, hi } = bracketAbove(below, 0, 1);
  return bisect(below, lo, hi, { rel: 1e-13 });
}

/** The interval at `level` (0.95) of τ², I² and H²; undefined when k ≤ p or the effects are out of reach of each other. */
export function tau2Interval(y: Float64Array, v: Float64Array, level = 0.95, X: Design = interceptOnly(y.length)): Tau2Interval | undefined {
  checkLevel(level, 'tau2Interval');
  const k = y.length;
  const df = k - X.length;
  const z = df < 1 ? undefined : scaledProblem(y, v);
  if (!z) return undefined;
  const c = z.c;
  const q = (t: number) => { const f = wls(z.y, X, weights(z.v, t)); return f ? weightedSum(f, 1, 2) : NaN; };
  const fe = wls(z.y, X, weights(z.v, 0));
  if (!fe) return undefined;
  const typical = df / traceP(fe, X);
  const lo = solve(q, chi2Quantile(1 - (1 - level) / 2, df));
  const hi = solve(q, chi2Quantile((1 - level) / 2, df));
  const i2 = (t: number) => t / (t + typical);
  const h2 = (t: number) => (t + typical) / typical;
  return { tau2_lo: lo * c * c, tau2_hi: hi * c * c, I2_lo: i2(lo), I2_hi: i2(hi), H2_lo: h2(lo), H2_hi: h2(hi) };
}
