/**
 * Leave-one-out diagnostics of a univariate random-effects model (metafor's leave1out(rma)): the
 * model refitted without each effect in turn — its estimate, SE, interval, τ², I² and Q — showing
 * which single effect moves the pooled estimate or the heterogeneity.
 */
import { fitUnivariate, type MetaSettings, type UnivariateFit } from './univariate.js';

export interface LeaveOneOutFit {
  /** The index of the effect left out. */
  readonly left_out: number;
  readonly estimate: number;
  readonly se: number;
  readonly ci_lo: number;
  readonly ci_hi: number;
  readonly tau2: number;
  readonly I2: number;
  readonly Q: number;
}

/** The model refitted without each effect in turn (index i: effect i left out; undefined where that fit fails). */
export function deletedFits(y: Float64Array, v: Float64Array, s: MetaSettings): (UnivariateFit | undefined)[] {
  return Array.from(y, (_, i) => fitUnivariate(y.filter((__, j) => j !== i), v.filter((__, j) => j !== i), s));
}

/**
 * One intercept-only fit per effect left out (k ≥ 3); a row without a fit is skipped. `deleted`: the deleted fits when the
 * caller has them (influence diagnostics refit the same models).
 */
export function leaveOneOutEffects(y: Float64Array, v: Float64Array, s: MetaSettings,
  deleted: readonly (UnivariateFit | undefined)[] = y.length < 3 ? [] : deletedFits(y, v, s)): LeaveOneOutFit[] {
  const out: LeaveOneOutFit[] = [];
  if (y.length < 3) return out;
  deleted.forEach((f, i) => {
    if (!f) return;
    const c = f.coefficients[0];
    out.push({ left_out: i, estimate: c.estimate, se: c.se, ci_lo: c.ci_lo, ci_hi: c.ci_hi, tau2: f.tau2, I2: f.I2, Q: f.Q });
  });
  return out;
}
