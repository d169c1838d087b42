/**
 * The univariate random-effects (or fixed-effect) model and meta-regression, as metafor's
 * rma.uni computes it: the τ² of a registered estimator, the weighted least-squares coefficients
 * with weights 1/(vᵢ + τ²), Wald-type z or Hartung–Knapp t intervals, Cochran's Q, I², H², the
 * test of moderators and, without moderators, a prediction interval with k − 2 degrees of freedom
 * and the conventional standard error.
 */
import { chiSquareUpper, fUpper, tQuantile, twoSidedP } from './distributions.js';
import { TAU2_ESTIMATORS, type Tau2Method } from './tau2.js';
import { scaledProblem } from './scale.js';
import { checkLevel } from '../normal.js';
import { invert, traceP, weights, weightedSum, wls, interceptOnly, type Design, type Matrix, type WlsFit } from './wls.js';

/**
 * How the coefficients are tested: Hartung–Knapp with the ad hoc truncation (t, k − p df, variance
 * scaled by max(1, s²): never narrower than the Wald interval's variance; metafor's test = "adhoc",
 * Knapp & Hartung 2003), Hartung–Knapp as published (scaled by s², which is 0 when the effects are
 * identical), or Wald (z).
 */
export type MetaTest = 'adhoc' | 'knha' | 'z';
export const META_TESTS: readonly MetaTest[] = ['adhoc', 'knha', 'z'];
/** Each test in words, for the outputs. */
export const META_TEST_NAMES: Readonly<Record<MetaTest, string>> = {
  adhoc: 'Hartung–Knapp with the ad hoc truncation max(1, s²)', knha: 'Hartung–Knapp', z: 'Wald z',
};
/** Random effects with an estimated τ², or fixed effect (τ² = 0). */
export type Pooling = 'random' | 'fixed';

export interface MetaSettings {
  readonly tau2: Tau2Method;
  readonly test: MetaTest;
  readonly pooling: Pooling;
  /** Confidence level (0.95). */
  readonly level: number;
}

export const META_DEFAULTS: MetaSettings = { tau2: 'REML', test: 'adhoc', pooling: 'random', level: 0.95 };

export interface Coefficient {
  readonly estimate: number;
  readonly se: number;
  readonly stat: number;
  readonly p: number;
  readonly ci_lo: number;
  readonly ci_hi: number;
}

export interface UnivariateFit {
  readonly k: number;
  /** Number of coefficients. */
  readonly p: number;
  readonly coefficients: readonly Coefficient[];
  /** Degrees of freedom of the coefficients' test (Infinity for z). */
  readonly df: number;
  readonly tau2: number;
  readonly tau2Converged: boolean;
  /** REML/ML: τ² set to 0 because the likelihood there is above that at the interior maximum the iteration reached. */
  readonly tau2Boundary: boolean;
  readonly I2: number;
  readonly H2: number;
  /** Cochran's Q (residual heterogeneity with fixed-effect weights), its df and p-value. */
  readonly Q: number;
  readonly Q_df: number;
  readonly Q_p: number;
  /** Test of the moderators (every coefficient but the intercept): χ² (z) or F (knha); NaN without moderators. */
  readonly QM: number;
  readonly QM_df1: number;
  readonly QM_df2: number;
  readonly QM_p: number;
  /**
   * Prediction interval of a new effect (intercept-only, k ≥ 3): estimate ± t_{k−2}·√(τ² + SE²)
   * with the conventional SE √(1/Σwᵢ), whatever the test (NaN below k = 3).
   */
  readonly pi_lo: number;
  readonly pi_hi: number;
}

/** Q, its p-value, and the typical within-effect variance (k − p)/tr(P) of the fixed-effect weights. */
function heterogeneity(y: Float64Array, v: Float64Array, X: Design) {
  const f = wls(y, X, weights(v, 0))!;
  const df = y.length - X.length;
  const Q = weightedSum(f, 1, 2);
  return { Q, df, Q_p: chiSquareUpper(Q, df), typical: df / traceP(f, X) };
}

/** Wald test of coefficients 1…p−1 (the moderators): QM = b′ V⁻¹ b. */
function moderatorTest(beta: readonly number[], vb: Matrix, test: MetaTest, df: number) {
  const m = beta.length - 1;
  if (m < 1) return { QM: NaN, QM_df1: 0, QM_df2: NaN, QM_p: NaN };
  const inv = invert(vb.slice(1).map((row) => row.slice(1)));
  const b = beta.slice(1);
  const q = inv ? b.reduce((s, bi, i) => s + bi * inv[i].reduce((t, v, j) => t + v * b[j], 0), 0) : NaN;
  if (test === 'z') return { QM: q, QM_df1: m, QM_df2: Infinity, QM_p: chiSquareUpper(q, m) };
  return { QM: q / m, QM_df1: m, QM_df2: df, QM_p: fUpper(q / m, m, df) };
}

/** The variance factor of the coefficients: s² = Σwᵢrᵢ²/(k − p) (knha), max(1, s²) (adhoc), 1 (z). */
function varianceFactor(test: MetaTest, s2: number): number {
  if (test === 'z') return 1;
  return test === 'adhoc' ? Math.max(1, s2) : s2;
}

/**
 * Fit the model to effects y with sampling variances v (design X, intercept-only by default).
 * Needs k > p; undefined when the design is singular or an effect lies out of double precision's
 * reach of the others (scale.ts). The fit runs on the scaled problem y/c, v/c² (and each column of X
 * divided by a power of two near its largest |x|) and is scaled back.
 * A RangeError unless 0 < level < 1.
 */
export function fitUnivariate(y: Float64Array, v: Float64Array, s: MetaSettings, X: Design = interceptOnly(y.length)): UnivariateFit | undefined {
  checkLevel(s.level, 'fitUnivariate');
  const k = y.length;
  const z = k <= X.length ? undefined : scaledProblem(y, v);
  if (!z) return undefined;
  const c = z.c;
  // With an intercept, a column whose mean is over OFFSET times its spread is centred at that mean (a moderator of 100 ± 1e-5
  // kept 5 of its digits: DL τ² 0.02921 for 0.02933), then each scaled by a power of two near its largest |x| (exact: a
  // moderator of 1e200 or 1e-200 fits as one of 1). Not every column: taken back, the centring's covariance T A T′ cancels
  // along a direction a cell of variance 1e-30 pins (its SE came out NaN).
  const centre = X.map((col, j) => (j > 0 && X[0].every((x) => x === 1) ? offset(col) : 0));
  const Xc = X.map((col, j) => (centre[j] === 0 || !Number.isFinite(centre[j]) ? col : col.map((x) => x - centre[j])));
  const colScale = Xc.map((col) => {
    const m = col.reduce((a, x) => Math.max(a, Math.abs(x)), 0);
    return m > 0 && Number.isFinite(m) ? 2 ** Math.round(Math.log2(m)) : 1;
  });
  const centres = Xc.map((col, j) => (col === X[j] ? 0 : centre[j] / colScale[j]));
  const f = fitScaled(z.y, z.v, s, Xc.map((col, j) => (colScale[j] === 1 ? col : col.map((x) => x / colScale[j]))), centres);
  if (!f) return undefined;
  const coefficients = f.coefficients.map((b, j) => {
    const u = c / colScale[j];
    return { ...b, estimate: b.estimate * u, se: b.se * u, ci_lo: b.ci_lo * u, ci_hi: b.ci_hi * u };
  });
  return { ...f, coefficients, tau2: f.tau2 * c * c, pi_lo: f.pi_lo * c, pi_hi: f.pi_hi * c };
}

/** A moderator column is centred when its mean is more than this many times its spread (3 digits lost to the offset). */
const OFFSET = 1e3;

/**
 * The fit of the scaled problem, its design's columns centred at `centres` (0: not centred); the coefficients and their
 * covariance are taken back to the uncentred columns (β₀ = β₀′ − Σ μⱼβⱼ, A = T A′ T′ with T = I − e₀μ′).
 */
function fitScaled(y: Float64Array, v: Float64Array, s: MetaSettings, X: Design, centres: readonly number[]): UnivariateFit | undefined {
  const k = y.length;
  const p = X.length;
  const est = s.pooling === 'fixed' ? { tau2: 0, converged: true } : TAU2_ESTIMATORS[s.tau2].estimate(y, v, X);
  const fc = wls(y, X, weights(v, est.tau2));
  if (!fc || !Number.isFinite(est.tau2)) return undefined;
  const f = uncentred(fc, centres);
  const scale = varianceFactor(s.test, weightedSum(f, 1, 2) / (k - p));
  const df = s.test === 'z' ? Infinity : k - p;
  const vb = f.A.map((row) => row.map((x) => x * scale));
  const crit = tQuantile(1 - (1 - s.level) / 2, df);
  const coefficients = f.beta.map((b, j) => {
    const se = Math.sqrt(vb[j][j]);
    return { estimate: b, se, stat: b / se, p: twoSidedP(b / se, df), ci_lo: b - crit * se, ci_hi: b + crit * se };
  });
  const h = heterogeneity(y, v, X);
  const fixed = s.pooling === 'fixed';
  const I2 = fixed ? Math.max(0, (h.Q - h.df) / h.Q) : est.tau2 / (est.tau2 + h.typical);
  const H2 = fixed ? h.Q / h.df : (est.tau2 + h.typical) / h.typical;
  // The prediction interval: t(k − 2) and the conventional (unscaled) SE, √(τ² + 1/Σwᵢ) (Higgins et al. 2009; IntHout et al. 2016).
  const piCrit = p === 1 && k >= 3 ? tQuantile(1 - (1 - s.level) / 2, k - 2) : NaN;
  const piHalf = piCrit * Math.sqrt(est.tau2 + f.A[0][0]);
  return {
    k, p, coefficients, df, tau2: est.tau2, tau2Converged: est.converged, tau2Boundary: 'boundary' in est && est.boundary === true, I2, H2,
    Q: h.Q, Q_df: h.df, Q_p: h.Q_p, ...moderatorTest(f.beta, vb, s.test, df),
    pi_lo: coefficients[0].estimate - piHalf, pi_hi: coefficients[0].estimate + piHalf,
  };
}

/** A column's mean when it is over OFFSET times the column's largest distance from it, else 0. */
function offset(col: Float64Array): number {
  const m = col.reduce((a, x) => a + x, 0) / col.length;
  const spread = col.reduce((a, x) => Math.max(a, Math.abs(x - m)), 0);
  return Math.abs(m) > OFFSET * spread ? m : 0;
}

/** The fit's coefficients and covariance on the uncentred columns: T β and T A T′, T = I − e₀μ′ (μ₀ = 0). */
function uncentred(f: WlsFit, mu: readonly number[]): WlsFit {
  if (mu.every((m) => m === 0)) return f;
  const t = (row: readonly number[]) => row.map((x, j) => (j === 0 ? row.reduce((a, r, i) => a - mu[i] * r, x) : x));
  const beta = t(f.beta);
  const AT = f.A.map(t);
  const A = AT[0].map((_, j) => t(AT.map((row) => row[j])));
  return { ...f, beta, A };
}
