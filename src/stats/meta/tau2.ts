/**
 * Estimators of the between-effect variance τ² of a random-effects model yᵢ = xᵢ′β + uᵢ + εᵢ,
 * uᵢ ~ N(0, τ²), εᵢ ~ N(0, vᵢ) (Viechtbauer 2005; metafor's rma.uni, Viechtbauer 2010), as a
 * typed registry. Each returns τ² ≥ 0 (truncated at 0) and whether its iteration converged.
 */
import { bisection, bracketAbove } from '../bisect.js';
import { heavyRows } from './heavy-split.js';
import { logDet } from './matrix.js';
import { traceP, traces, weights, weightedSum, wls, type Design } from './wls.js';

export interface Tau2Estimate {
  readonly tau2: number;
  readonly converged: boolean;
  readonly iterations: number;
  /** REML/ML: the iteration stopped at a maximum inside (0, ∞) whose likelihood is below that at τ² = 0, so τ² = 0 (as metafor). */
  readonly boundary?: boolean;
}

export interface Tau2Estimator {
  /** How it is computed, for the outputs and the help text. */
  readonly describe: string;
  estimate(y: Float64Array, v: Float64Array, X: Design): Tau2Estimate;
}

const MAX_ITER = 1000;
const TOL = 1e-13;

/** DerSimonian–Laird (1986), generalized to moderators: (Q_E − (k − p)) / tr(P) with fixed-effect weights. */
function dl(y: Float64Array, v: Float64Array, X: Design): Tau2Estimate {
  const f = wls(y, X, weights(v, 0));
  if (!f) return { tau2: NaN, converged: false, iterations: 0 };
  const q = weightedSum(f, 1, 2);
  return { tau2: Math.max(0, (q - (y.length - X.length)) / traceP(f, X)), converged: true, iterations: 0 };
}

type Fit = NonNullable<ReturnType<typeof wls>>;

/**
 * Fisher scoring from the DL value, with step halving to stay at τ² ≥ 0, safeguarded by a bracket:
 * `score(fit)` is the derivative of the log-likelihood (up to a positive factor) and `info(fit)` the
 * matching information, so a step is score/info. Every τ² whose score is positive is a lower end of
 * the bracket, every one whose score is negative an upper end; a step that would leave the bracket
 * (scoring overshoots where the likelihood is not concave, and can cycle there without end, e.g.
 * next to a cell whose variance is far below the others') is replaced by the bracket's midpoint, so
 * the iteration reaches a stationary point, where plain scoring, when it converges, reaches the same
 * one. Stops when a step moves τ² by less than 1e-13·max(1, τ²). That point is a local maximum, not
 * always the global one: the likelihood need not be unimodal, and one at τ² = 0 can be higher. So, as
 * metafor does, the log-likelihood there is compared with that at 0, and τ² = 0 taken (boundary) when
 * 0 is higher — only where the likelihood at 0 is resolved in double precision: not where a weight at 0 is above GATE × the
 * typical one (heavy-split.ts; a cell of variance 1e-30 beside 0.01, where the comparison flipped between 1e-20 and 1e-40), and
 * for REML not where log det (X′WX)⁻¹ loses its digits (matrix.ts logDet); there the stationary point is kept.
 */
function fisherScoring(y: Float64Array, v: Float64Array, X: Design, score: (f: Fit) => number, info: (f: Fit) => number,
  logLik: (tau2: number) => number): Tau2Estimate {
  const est = scoringIterate(y, v, X, score, info);
  if (!(est.tau2 > 0) || heavyRows(Float64Array.from(v, (x) => 1 / x)).extreme || !(logLik(0) > logLik(est.tau2))) return est;
  return { ...est, tau2: 0, boundary: true };
}

/**
 * The log-likelihood of τ² (ML), −½Σlog(vᵢ + τ²) − ½Σwᵢrᵢ², or the restricted one (REML), which adds
 * −½ log det X′WX = ½ log det (X′WX)⁻¹; −∞ when the fit fails.
 */
function logLikelihood(y: Float64Array, v: Float64Array, X: Design, tau2: number, restricted: boolean): number {
  const f = wls(y, X, weights(v, tau2));
  if (!f) return -Infinity;
  let s = 0;
  for (const x of v) s += Math.log(x + tau2);
  return -0.5 * s - 0.5 * weightedSum(f, 1, 2) + (restricted ? 0.5 * logDet(f.A) : 0);
}

function scoringIterate(y: Float64Array, v: Float64Array, X: Design, score: (f: Fit) => number, info: (f: Fit) => number): Tau2Estimate {
  let tau2 = dl(y, v, X).tau2;
  if (!Number.isFinite(tau2)) return { tau2: NaN, converged: false, iterations: 0 };
  let lo = 0, hi = Infinity, dx = Infinity, dxOld = Infinity;
  for (let it = 1; it <= MAX_ITER; it++) {
    const f = wls(y, X, weights(v, tau2));
    if (!f) return { tau2: NaN, converged: false, iterations: it };
    const s = score(f);
    if (tau2 === 0 && s <= 0) return { tau2: 0, converged: true, iterations: it };
    if (s > 0) lo = Math.max(lo, tau2); else if (s < 0) hi = Math.min(hi, tau2);
    let adj = s / info(f);
    let halvings = 0;
    while (tau2 + adj < 0 && halvings++ < 60) adj /= 2;
    const next = Math.max(0, tau2 + adj);
    if (Math.abs(next - tau2) <= TOL * Math.max(1, tau2)) return { tau2: next, converged: true, iterations: it };
    // Inside the bracket (0 itself is always allowed: the boundary check above decides there); else its midpoint. The
    // midpoint also once the bracket is finite and the step is more than half the one before last (safeguarded Newton,
    // Numerical Recipes' rtsafe): ML scoring whose information overstates the curvature crawled ~2 % of the bracket a step.
    const inside = next < hi && (next > lo || next === 0);
    dxOld = dx;
    if (inside && !(hi < Infinity && Math.abs(next - tau2) > dxOld / 2)) { dx = Math.abs(next - tau2); tau2 = next; } else {
      dx = (hi - lo) / 2;
      tau2 = (lo + hi) / 2;
    }
    if (hi < Infinity && hi - lo <= TOL * Math.max(1, hi)) return { tau2, converged: true, iterations: it };
  }
  return { tau2, converged: false, iterations: MAX_ITER };
}

/** Restricted maximum likelihood: score (y′PPy − tr P)/2, information tr(PP)/2 (both traces from one pass). */
function reml(y: Float64Array, v: Float64Array, X: Design): Tau2Estimate {
  let t = { P: NaN, PP: NaN };
  return fisherScoring(y, v, X, (f) => { t = traces(f, X); return weightedSum(f, 2, 2) - t.P; }, () => t.PP,
    (tau2) => logLikelihood(y, v, X, tau2, true));
}

/** Maximum likelihood: score (Σw²r² − Σw)/2, information Σw²/2. */
const ml = (y: Float64Array, v: Float64Array, X: Design) => fisherScoring(y, v, X, (f) => weightedSum(f, 2, 2) - weightedSum(f, 1, 0),
  (f) => weightedSum(f, 2, 0), (tau2) => logLikelihood(y, v, X, tau2, false));

/** Paule–Mandel (1982): the τ² at which the generalized Q, Σ wᵢ(τ²) rᵢ², equals k − p (bisection; Q falls with τ²). */
function pm(y: Float64Array, v: Float64Array, X: Design): Tau2Estimate {
  const target = y.length - X.length;
  const q = (t: number) => { const f = wls(y, X, weights(v, t)); return f ? weightedSum(f, 1, 2) - target : NaN; };
  const at0 = q(0);
  if (Number.isNaN(at0)) return { tau2: NaN, converged: false, iterations: 0 };
  if (at0 <= 0) return { tau2: 0, converged: true, iterations: 0 };
  const below = (t: number) => q(t) > 0;
  const { lo, hi, doublings } = bracketAbove(below, 0, Math.max(dl(y, v, X).tau2, 1e-8), 200);
  const b = bisection(below, lo, hi, { rel: 1e-15, maxIter: 400 - doublings });
  return { tau2: b.x, converged: b.converged, iterations: doublings + b.iterations };
}

/** The τ² estimators by the name the manifest and `--tau2` use (metafor's `method`). */
export const TAU2_ESTIMATORS = {
  REML: { describe: 'restricted maximum likelihood (Fisher scoring)', estimate: reml },
  DL: { describe: 'DerSimonian–Laird (method of moments)', estimate: dl },
  PM: { describe: 'Paule–Mandel (generalized Q equals its degrees of freedom)', estimate: pm },
  ML: { describe: 'maximum likelihood (Fisher scoring)', estimate: ml },
} as const satisfies Readonly<Record<string, Tau2Estimator>>;

export type Tau2Method = keyof typeof TAU2_ESTIMATORS;
export const TAU2_METHODS = Object.keys(TAU2_ESTIMATORS) as Tau2Method[];
