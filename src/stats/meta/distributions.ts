/**
 * The distributions of the meta-analytic tests — Student t (Hartung–Knapp and prediction
 * intervals), χ² (Cochran's Q, the Wald test of moderators) and F (the moderators' test under
 * Hartung–Knapp) — on the incomplete beta and gamma functions of stats/ (t-beta.ts, chi2.ts), with
 * df = ∞ meaning the normal.
 */
import { betaCdf } from '../t-beta.js';
import { chi2Sf } from '../chi2.js';
import { normalCdf } from '../normal.js';

/** P(χ²_df > q). */
export const chiSquareUpper = (q: number, df: number): number => (df > 0 ? chi2Sf(q, df) : NaN);

/** P(F_{d1, d2} > f) = I_{d2/(d2 + d1 f)}(d2/2, d1/2). */
export function fUpper(f: number, d1: number, d2: number): number {
  if (!(f > 0)) return f <= 0 ? 1 : NaN;
  return betaCdf(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);
}

/** Two-sided p-value of a t statistic with df degrees of freedom (df = ∞: z). */
export function twoSidedP(stat: number, df: number): number {
  if (Number.isNaN(stat)) return NaN;
  if (df === Infinity) return 2 * normalCdf(-Math.abs(stat));
  return betaCdf(df / (df + stat * stat), df / 2, 0.5);
}

/** The p-quantile of Student's t with df degrees of freedom (df = ∞: the normal), defined once in t-beta.ts. */
export { tQuantile } from '../t-beta.js';
