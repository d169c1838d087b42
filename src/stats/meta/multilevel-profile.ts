/**
 * Profile-likelihood confidence intervals of the two variances of the three-level model
 * (metafor's confint(rma.mv), type "PL"): for σ²_outer, the values s at which the restricted
 * log-likelihood maximized over σ²_inner with σ²_outer fixed at s falls qχ²₁(level)/2 below its
 * maximum, 2(ℓ̂ − ℓ_p(s)) = χ²₁,level; likewise for σ²_inner. A lower bound is 0 when the profile at
 * 0 is still within the cut; the upper bound is searched up to metafor's limit max(10, 100·σ̂²)
 * and is that limit (with `hi_at_limit`) when the profile stays within the cut there.
 * On the problem scaled as the fits are (scale.ts).
 */
import { bisect } from '../bisect.js';
import { chi2Quantile } from '../chi2.js';
import { checkLevel } from '../normal.js';
import { fitMultilevel, multilevelLogLik } from './multilevel.js';
import { maximizeNonNegative } from './optimize.js';
import { scaledProblem } from './scale.js';

export interface VarianceInterval {
  readonly estimate: number;
  readonly lo: number;
  readonly hi: number;
  /** True when the upper bound is the search limit (the profile never fell below the cut). */
  readonly hi_at_limit: boolean;
}

export interface MultilevelIntervals {
  readonly sigma2_outer: VarianceInterval;
  readonly sigma2_inner: VarianceInterval;
}

/** The x in [lo, hi] where f changes sign (f(lo), f(hi) of opposite signs), by bisection to 1e-12 relative. */
function root(f: (x: number) => number, lo: number, hi: number): number {
  const negativeAtLo = f(lo) < 0;
  return bisect((x) => (f(x) < 0) === negativeAtLo, lo, hi, { rel: 1e-12, abs: 1e-312, maxIter: 300 });
}

function bound(excess: (s: number) => number, est: number, limit: number): VarianceInterval {
  const lo = est <= 0 || excess(0) < 0 ? 0 : root(excess, 0, est);
  const atLimit = excess(limit) < 0;
  return { estimate: est, lo, hi: atLimit ? limit : root(excess, est, limit), hi_at_limit: atLimit };
}

/** The profile-likelihood intervals at `level` (0.95); undefined when the model cannot be fitted. */
export function multilevelIntervals(y: Float64Array, v: Float64Array, group: Int32Array, level = 0.95): MultilevelIntervals | undefined {
  checkLevel(level, 'multilevelIntervals');
  const z = scaledProblem(y, v);
  if (!z) return undefined;
  const fit = fitMultilevel(z.y, z.v, group, level);
  if (!fit) return undefined;
  const cut = chi2Quantile(level, 1);
  const top = fit.logLik;
  let spread = 0;
  const mean = z.y.reduce((s, x) => s + x, 0) / z.y.length;
  for (const x of z.y) spread += (x - mean) ** 2 / (z.y.length - 1);
  const hi = 2 * spread || 1;
  const ll = (so: number, si: number) => multilevelLogLik(z.y, z.v, group, so, si);
  const outer = (s: number) => 2 * (top - ll(s, maximizeNonNegative((si) => ll(s, si), hi))) - cut;
  const inner = (s: number) => 2 * (top - ll(maximizeNonNegative((so) => ll(so, s), hi), s)) - cut;
  const c2 = z.c * z.c;
  const limit = (est: number) => Math.max(10 / c2, 100 * est);
  const scale = (b: VarianceInterval): VarianceInterval => ({ ...b, estimate: b.estimate * c2, lo: b.lo * c2, hi: b.hi * c2 });
  return {
    sigma2_outer: scale(bound(outer, fit.sigma2_outer, limit(fit.sigma2_outer))),
    sigma2_inner: scale(bound(inner, fit.sigma2_inner, limit(fit.sigma2_inner))),
  };
}
