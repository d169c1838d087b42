/**
 * Influence diagnostics of the intercept-only random-effects model, as metafor's
 * influence(rma.uni) computes them (Viechtbauer & Cheung 2010, "Outlier and influence diagnostics
 * for meta-analysis", Res. Synth. Methods 1). With the full fit (μ̂, τ̂², weights wᵢ = 1/(vᵢ + τ̂²),
 * Var μ̂ = s²/Σw) and each fit without effect i (μ̂₍ᵢ₎, τ̂²₍ᵢ₎, s²₍ᵢ₎, Var μ̂₍ᵢ₎), s² being the
 * variance factor of the test (1 for z, the Hartung–Knapp factor otherwise):
 *   rstudent  (yᵢ − μ̂₍ᵢ₎)/√(s²₍ᵢ₎(vᵢ + τ̂²₍ᵢ₎) + Var μ̂₍ᵢ₎)
 *   hat       hᵢ = wᵢ/Σw;  weight wᵢ/Σw
 *   dffits    (μ̂ − μ̂₍ᵢ₎)/√(s²₍ᵢ₎·hᵢ·(τ̂²₍ᵢ₎ + vᵢ))
 *   cook.d    (μ̂ − μ̂₍ᵢ₎)²/Var μ̂;  cov.r  Var μ̂₍ᵢ₎/Var μ̂
 *   dfbetas   (μ̂ − μ̂₍ᵢ₎)/√(s²₍ᵢ₎/Σⱼ 1/(vⱼ + τ̂²₍ᵢ₎)) (the sum over all k effects)
 *   tau2.del, QE.del  τ̂²₍ᵢ₎ and Cochran's Q without effect i.
 * An effect is influential when |dffits| > 3√(p/(k − p)), P(χ²_p ≤ cook.d) > 0.5, hᵢ > 3p/k or
 * |dfbetas| > 1 (p = 1 here). The Baujat plot's coordinates (Baujat et al. 2002, metafor's baujat):
 * x = (yᵢ − μ̂)²/(vᵢ + τ̂²), the effect's squared Pearson residual; y = (μ̂₍ᵢ₎ − μ̂)²/Var μ̂₍ᵢ₎, its
 * influence on the overall estimate.
 */
import { chi2Cdf } from '../chi2.js';
import { fitUnivariate, type MetaSettings, type UnivariateFit } from './univariate.js';
import { deletedFits } from './leave-one-out.js';

export interface InfluenceRow {
  readonly rstudent: number;
  readonly dffits: number;
  readonly cook_d: number;
  readonly cov_r: number;
  readonly tau2_del: number;
  readonly QE_del: number;
  readonly hat: number;
  /** The effect's share of the total weight (metafor prints it × 100). */
  readonly weight: number;
  readonly dfbetas: number;
  /** Flagged by metafor's rule. */
  readonly influential: boolean;
  readonly baujat_x: number;
  readonly baujat_y: number;
}

const sumInverse = (v: Float64Array, t: number) => v.reduce((s, x) => s + 1 / (x + t), 0);

/**
 * One row per effect (k ≥ 3; an effect whose deleted fit fails gets NaN and no flag). `deleted`: the model refitted without
 * each effect (leave-one-out.ts deletedFits), when the caller has them.
 */
export function influenceDiagnostics(y: Float64Array, v: Float64Array, s: MetaSettings,
  deleted?: readonly (UnivariateFit | undefined)[]): InfluenceRow[] | undefined {
  const k = y.length;
  const full = k >= 3 ? fitUnivariate(y, v, s) : undefined;
  if (!full) return undefined;
  const fits = deleted ?? deletedFits(y, v, s);
  const mu = full.coefficients[0].estimate;
  const vb = full.coefficients[0].se ** 2;
  const sw = sumInverse(v, full.tau2);
  return Array.from(y, (yi, i) => {
    const keep = (_: number, j: number) => j !== i;
    const d = fits[i];
    const hat = 1 / (v[i] + full.tau2) / sw;
    const baujat_x = (yi - mu) ** 2 / (v[i] + full.tau2);
    if (!d) {
      return { rstudent: NaN, dffits: NaN, cook_d: NaN, cov_r: NaN, tau2_del: NaN, QE_del: NaN, hat, weight: hat, dfbetas: NaN, influential: false,
        baujat_x, baujat_y: NaN };
    }
    const muDel = d.coefficients[0].estimate;
    const vbDel = d.coefficients[0].se ** 2;
    const s2 = vbDel * sumInverse(v.filter(keep), d.tau2);
    const dffits = (mu - muDel) / Math.sqrt(s2 * hat * (d.tau2 + v[i]));
    const cook_d = (mu - muDel) ** 2 / vb;
    const dfbetas = (mu - muDel) / Math.sqrt(s2 / sumInverse(v, d.tau2));
    const influential = Math.abs(dffits) > 3 * Math.sqrt(1 / (k - 1)) || chi2Cdf(cook_d, 1) > 0.5 || hat > 3 / k || Math.abs(dfbetas) > 1;
    return {
      rstudent: (yi - muDel) / Math.sqrt(s2 * (v[i] + d.tau2) + vbDel), dffits, cook_d, cov_r: vbDel / vb, tau2_del: d.tau2, QE_del: d.Q, hat,
      weight: hat, dfbetas, influential, baujat_x, baujat_y: (muDel - mu) ** 2 / vbDel,
    };
  });
}
