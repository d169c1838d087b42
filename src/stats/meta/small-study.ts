/**
 * Tests of small-study effects (funnel-plot asymmetry) as metafor computes them:
 * - regtest (Egger et al. 1997; Sterne & Egger 2005): the meta-regression yᵢ = b₀ + b₁·xᵢ with the
 *   model's τ² estimator and test, xᵢ the standard error (default), the variance, the sample size
 *   nᵢ, 1/nᵢ, √nᵢ or 1/√nᵢ; the test of b₁ = 0 (z or t with k − 2 df) and, for the SE or the
 *   variance, the limit estimate b₀ (the effect of an infinitely precise study) with its interval.
 * - ranktest (Begg & Mazumdar 1994): Kendall's τ between the standardized effects
 *   (yᵢ − θ̂)/√(vᵢ − 1/Σw) (θ̂ the fixed-effect estimate, w = 1/v) and the variances vᵢ (kendall.ts),
 *   computed stably when one variance is far below the others'.
 * - PET-PEESE (Stanley & Doucouliagos 2014): the weighted least-squares regressions yᵢ = b₀ + b₁·seᵢ
 *   (PET) and yᵢ = b₀ + b₁·vᵢ (PEESE) with weights 1/vᵢ and a multiplicative residual variance
 *   (R's lm(y ~ se, weights = 1/v)); the corrected estimate is PET's b₀ unless PET rejects b₀ = 0 at
 *   one-sided 5 % (two-sided p < 0.10), then PEESE's b₀.
 */
import { fitUnivariate, type MetaSettings } from './univariate.js';
import { kendallTest, type KendallTest } from './kendall.js';
import { interceptOnly, othersSums, weights, wls } from './wls.js';
import { scaledProblem } from './scale.js';

export type RegtestPredictor = 'sei' | 'vi' | 'ni' | 'ninv' | 'sqrtni' | 'sqrtninv';
export const REGTEST_PREDICTORS: readonly RegtestPredictor[] = ['sei', 'vi', 'ni', 'ninv', 'sqrtni', 'sqrtninv'];

export interface Regtest {
  readonly predictor: RegtestPredictor;
  /** z or t of the predictor's coefficient, its df (Infinity for z) and two-sided p. */
  readonly stat: number;
  readonly df: number;
  readonly p: number;
  /** The intercept b₀ with its interval: the limit estimate as the predictor goes to 0 (NaN for ni and √ni, which do not). */
  readonly limit: number;
  readonly limit_lo: number;
  readonly limit_hi: number;
}

const PREDICTOR: Record<RegtestPredictor, (v: number, n: number) => number> = {
  sei: (v) => Math.sqrt(v), vi: (v) => v, ni: (_, n) => n, ninv: (_, n) => 1 / n, sqrtni: (_, n) => Math.sqrt(n), sqrtninv: (_, n) => 1 / Math.sqrt(n),
};

/** The regression test with one predictor (n: sample sizes, needed by the n predictors); undefined when the fit fails (a constant predictor). */
export function regtest(y: Float64Array, v: Float64Array, s: MetaSettings, predictor: RegtestPredictor = 'sei', n?: Float64Array): Regtest | undefined {
  if (predictor.includes('ni') && !n) return undefined;
  const x = Float64Array.from(v, (vi, i) => PREDICTOR[predictor](vi, n ? n[i] : NaN));
  if (x.every((xi) => xi === x[0]) || x.some((xi) => !Number.isFinite(xi))) return undefined;
  const f = fitUnivariate(y, v, s, [new Float64Array(y.length).fill(1), x]);
  if (!f) return undefined;
  const [b0, b1] = f.coefficients;
  const limits = predictor !== 'ni' && predictor !== 'sqrtni';
  return {
    predictor, stat: b1.stat, df: f.df, p: b1.p, limit: limits ? b0.estimate : NaN, limit_lo: limits ? b0.ci_lo : NaN, limit_hi: limits ? b0.ci_hi : NaN,
  };
}

/**
 * Begg and Mazumdar's rank correlation test. The standardized effect rᵢ/√(vᵢ − 1/S) (S = Σw) is
 * computed without the differences that cancel when one vᵢ is far below the others' (1e-30 beside
 * 0.01, where vᵢ − 1/S is 0 and rᵢ noise in double precision): the residuals rᵢ of the fixed-effect
 * fit measured from the heaviest cell (wls.ts), and vᵢ − 1/S = vᵢ·Σ_{j≠i}wⱼ/S, a product of sums of
 * positive terms. It runs on the scaled problem y/c, v/c² (scale.ts; τ is unchanged by scaling); NaN
 * when a row is out of reach there (the fits refuse such a table).
 */
export function ranktest(y: Float64Array, v: Float64Array): KendallTest {
  const z = scaledProblem(y, v);
  const f = z && wls(z.y, interceptOnly(y.length), weights(z.v, 0));
  if (!z || !f) return { tau: NaN, p: NaN, exact: false };
  const S = f.w.reduce((a, b) => a + b, 0);
  const others = othersSums(f.w);
  const star = Float64Array.from(f.r, (r, i) => r / Math.sqrt((z.v[i] * others[i]) / S));
  return kendallTest(star, v);
}

export interface WlsLine { readonly estimate: number; readonly se: number; readonly p: number; readonly slope: number }
export interface PetPeese {
  readonly pet: WlsLine;
  readonly peese: WlsLine;
  /** Which intercept is the corrected estimate. */
  readonly chosen: 'PET' | 'PEESE';
}

/** PET's and PEESE's weighted regressions (k ≥ 3) and the conditional choice. */
export function petPeese(y: Float64Array, v: Float64Array): PetPeese | undefined {
  const line = (x: Float64Array): WlsLine | undefined => {
    const f = fitUnivariate(y, v, { tau2: 'REML', test: 'knha', pooling: 'fixed', level: 0.95 }, [new Float64Array(y.length).fill(1), x]);
    return f && { estimate: f.coefficients[0].estimate, se: f.coefficients[0].se, p: f.coefficients[0].p, slope: f.coefficients[1].estimate };
  };
  if (y.length < 3) return undefined;
  const pet = line(v.map(Math.sqrt));
  const peese = line(v);
  if (!pet || !peese) return undefined;
  return { pet, peese, chosen: pet.p < 0.1 ? 'PEESE' : 'PET' };
}
