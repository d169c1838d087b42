/**
 * The three-level model of Konstantopoulos (2011), as metafor's
 * rma.mv(yi, vi, random = ~ 1 | outer/inner, test = "t") fits it by REML: effect i of group j is
 * yᵢ = μ + u_j + wᵢ + εᵢ with u_j ~ N(0, σ²_outer), wᵢ ~ N(0, σ²_inner), εᵢ ~ N(0, vᵢ). The
 * marginal covariance is block-diagonal, each block diag(vᵢ + σ²_inner) + σ²_outer·11′, so its
 * inverse and determinant follow from Sherman–Morrison in O(k) — no k × k matrix is formed.
 */
import { tQuantile, twoSidedP } from './distributions.js';
import { nelderMead, newtonPolish } from './optimize.js';

export interface MultilevelFit {
  readonly k: number;
  readonly groups: number;
  readonly estimate: number;
  readonly se: number;
  readonly df: number;
  readonly p: number;
  readonly ci_lo: number;
  readonly ci_hi: number;
  readonly sigma2_outer: number;
  readonly sigma2_inner: number;
  /** The restricted log-likelihood at the estimates (metafor's logLik, REML). */
  readonly logLik: number;
  /** Prediction interval of a new effect: estimate ± t_{k−2}·√(se² + σ²_outer + σ²_inner). */
  readonly pi_lo: number;
  readonly pi_hi: number;
}

interface Gls { beta: number; info: number; logDetV: number; rVr: number }

/** μ̂, 1′V⁻¹1, log|V| and r′V⁻¹r at (σ²_outer, σ²_inner); group[i] is effect i's outer group (0…G−1). */
function gls(y: Float64Array, v: Float64Array, group: Int32Array, G: number, so: number, si: number): Gls {
  const S = new Float64Array(G);
  const T = new Float64Array(G);
  let logDetV = 0;
  for (let i = 0; i < y.length; i++) {
    const d = v[i] + si;
    S[group[i]] += 1 / d;
    T[group[i]] += y[i] / d;
    logDetV += Math.log(d);
  }
  let info = 0;
  let xy = 0;
  for (let j = 0; j < G; j++) {
    const c = so / (1 + so * S[j]);
    info += S[j] - c * S[j] * S[j];
    xy += T[j] - c * S[j] * T[j];
    logDetV += Math.log1p(so * S[j]);
  }
  const beta = xy / info;
  const R = new Float64Array(G);
  let rVr = 0;
  for (let i = 0; i < y.length; i++) {
    const r = y[i] - beta;
    const u = 1 / (v[i] + si);
    R[group[i]] += u * r;
    rVr += u * r * r;
  }
  for (let j = 0; j < G; j++) rVr -= (so / (1 + so * S[j])) * R[j] * R[j];
  return { beta, info, logDetV, rVr };
}

/** The restricted log-likelihood (metafor's, with its ½ log|X′X| term). */
function remlLogLik(y: Float64Array, v: Float64Array, group: Int32Array, G: number, so: number, si: number): number {
  const g = gls(y, v, group, G, so, si);
  const k = y.length;
  return -0.5 * ((k - 1) * Math.log(2 * Math.PI) - Math.log(k) + g.logDetV + Math.log(g.info) + g.rVr);
}

/**
 * Fit by REML over (σ_outer, σ_inner) with σ² = s² (so the boundary σ² = 0 is an ordinary point):
 * Nelder–Mead from half the between-effect variance each, then Newton steps on the log-likelihood.
 * Needs k ≥ 2; `level` is the confidence level.
 */
export function fitMultilevel(y: Float64Array, v: Float64Array, group: Int32Array, level = 0.95): MultilevelFit | undefined {
  const k = y.length;
  if (k < 2) return undefined;
  let G = 0;
  for (let i = 0; i < k; i++) G = Math.max(G, group[i] + 1);
  let mean = 0;
  for (let i = 0; i < k; i++) mean += y[i] / k;
  let spread = 0;
  for (let i = 0; i < k; i++) spread += (y[i] - mean) ** 2 / (k - 1);
  const start = Math.sqrt(Math.max(spread, 1e-8) / 2);
  const f = (s: readonly number[]) => -remlLogLik(y, v, group, G, s[0] * s[0], s[1] * s[1]);
  const s = newtonPolish(f, nelderMead(f, [start, start], start / 2));
  const so = s[0] * s[0];
  const si = s[1] * s[1];
  const g = gls(y, v, group, G, so, si);
  const se = Math.sqrt(1 / g.info);
  const df = k - 1;
  const crit = tQuantile(1 - (1 - level) / 2, df);
  const piHalf = k >= 3 ? tQuantile(1 - (1 - level) / 2, k - 2) * Math.sqrt(se * se + so + si) : NaN;
  return {
    k, groups: G, estimate: g.beta, se, df, p: twoSidedP(g.beta / se, df), ci_lo: g.beta - crit * se, ci_hi: g.beta + crit * se,
    sigma2_outer: so, sigma2_inner: si, logLik: -f(s), pi_lo: g.beta - piHalf, pi_hi: g.beta + piHalf,
  };
}
