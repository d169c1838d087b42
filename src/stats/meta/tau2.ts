/**
 * Estimators of the between-effect variance τ² of a random-effects model yᵢ = xᵢ′β + uᵢ + εᵢ,
 * uᵢ ~ N(0, τ²), εᵢ ~ N(0, vᵢ) (Viechtbauer 2005; metafor's rma.uni, Viechtbauer 2010), as a
 * typed registry. Each returns τ² ≥ 0 (truncated at 0) and whether its iteration converged.
 */
import { bisection, bracketAbove } from '../bisect.js';
import { traceP, tracePP, weights, weightedSum, wls, type Design } from './wls.js';

export interface Tau2Estimate {
  readonly tau2: number;
  readonly converged: boolean;
  readonly iterations: number;
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

/**
 * Fisher scoring from the DL value, with step halving to stay at τ² ≥ 0; `step(fit)` is the
 * score divided by the information. Stops when a step moves τ² by less than 1e-13·max(1, τ²).
 */
function fisherScoring(y: Float64Array, v: Float64Array, X: Design, step: (f: NonNullable<ReturnType<typeof wls>>) => number): Tau2Estimate {
  let tau2 = dl(y, v, X).tau2;
  if (!Number.isFinite(tau2)) return { tau2: NaN, converged: false, iterations: 0 };
  for (let it = 1; it <= MAX_ITER; it++) {
    const f = wls(y, X, weights(v, tau2));
    if (!f) return { tau2: NaN, converged: false, iterations: it };
    let adj = step(f);
    if (tau2 === 0 && adj <= 0) return { tau2: 0, converged: true, iterations: it };
    let halvings = 0;
    while (tau2 + adj < 0 && halvings++ < 60) adj /= 2;
    const next = Math.max(0, tau2 + adj);
    const done = Math.abs(next - tau2) <= TOL * Math.max(1, tau2);
    tau2 = next;
    if (done) return { tau2, converged: true, iterations: it };
  }
  return { tau2, converged: false, iterations: MAX_ITER };
}

/** Restricted maximum likelihood: score (y′PPy − tr P)/2, information tr(PP)/2. */
const reml = (y: Float64Array, v: Float64Array, X: Design) =>
  fisherScoring(y, v, X, (f) => (weightedSum(f, 2, 2) - traceP(f, X)) / tracePP(f, X));

/** Maximum likelihood: score (Σw²r² − Σw)/2, information Σw²/2. */
const ml = (y: Float64Array, v: Float64Array, X: Design) =>
  fisherScoring(y, v, X, (f) => (weightedSum(f, 2, 2) - weightedSum(f, 1, 0)) / weightedSum(f, 2, 0));

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
