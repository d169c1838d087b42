/**
 * The two-sided normal-mixture boundary for a sub-Gaussian mean (Robbins 1970; Howard, Ramdas,
 * McAuliffe and Sekhon 2021, the normal mixture of their section 3). Observations in [0, 1] are
 * sub-Gaussian with variance proxy 1/4 (Hoeffding), so S_t = Σ (X_i − μ) has intrinsic time
 * V_t = t/4, and mixing exp(λS_t − λ²V_t/2) over λ ~ N(0, 1/ρ) gives the supermartingale
 * √(ρ/(V_t + ρ)) exp(S_t²/(2(V_t + ρ))); Ville's inequality at 1/α gives, at every t at once,
 *   |X̄_t − μ| ≤ √((V_t + ρ)(log(1 + V_t/ρ) + 2 log(1/α))) / t.
 * ρ tunes where the boundary is tightest: ρ = V_opt/(2 log(1/α) + log(1 + 2 log(1/α))) with
 * V_opt = t_opt/4 makes it tightest near t = t_opt (the choice of the confseq package's
 * two-sided normal mixture, `conjmix_hoeffding_twosided_cs`).
 */
import { sequenceState, type RawSequence } from './intersect.js';
import type { ConfSeqSettings, SequenceState } from './types.js';

/** ρ for a two-sided boundary tightest at intrinsic time vOpt. */
export function normalMixtureRho(vOpt: number, alpha: number): number {
  const l = Math.log(1 / alpha);
  return vOpt / (2 * l + Math.log(1 + 2 * l));
}

/** The boundary on |S_t| at intrinsic time v. */
export function normalMixtureBound(v: number, alpha: number, rho: number): number {
  return Math.sqrt((v + rho) * (Math.log(1 + v / rho) + 2 * Math.log(1 / alpha)));
}

export function startNormalMixture(settings: ConfSeqSettings): SequenceState {
  const { alpha } = settings;
  const rho = normalMixtureRho((settings.tOpt ?? 100) / 4, alpha);
  let t = 0, sum = 0;
  const raw: RawSequence = {
    push(x) { t++; sum += x; },
    get t() { return t; },
    raw() {
      if (t === 0) return [0, 1];
      const mean = sum / t, b = normalMixtureBound(t / 4, alpha, rho) / t;
      return [Math.max(0, mean - b), Math.min(1, mean + b)];
    },
  };
  return sequenceState(raw, settings.intersect ?? true);
}
