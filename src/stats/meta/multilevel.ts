/**
 * The three-level model of Konstantopoulos (2011), as metafor's
 * rma.mv(yi, vi, random = ~ 1 | outer/inner, test = "t") fits it by REML: effect i of group j is
 * yᵢ = μ + u_j + wᵢ + εᵢ with u_j ~ N(0, σ²_outer), wᵢ ~ N(0, σ²_inner), εᵢ ~ N(0, vᵢ). The
 * marginal covariance is block-diagonal, each block diag(vᵢ + σ²_inner) + σ²_outer·11′, so its
 * inverse and determinant follow from Sherman–Morrison — no k × k matrix is formed.
 */
import { tQuantile, twoSidedP } from './distributions.js';
import { maximizeNonNegative } from './optimize.js';

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

/** Sums over each outer group at a given σ²_inner: Σu, Σu·y, Σu·y² with u = 1/(vᵢ + σ²_inner), and Σ log(vᵢ + σ²_inner). */
interface GroupSums { readonly S: Float64Array; readonly T: Float64Array; readonly Q: Float64Array; readonly logD: number }

function groupSums(y: Float64Array, v: Float64Array, group: Int32Array, G: number, si: number): GroupSums {
  const S = new Float64Array(G);
  const T = new Float64Array(G);
  const Q = new Float64Array(G);
  // Σ log d as the log of running products (one logarithm per many effects, the product kept in range).
  let logD = 0;
  let prod = 1;
  for (let i = 0; i < y.length; i++) {
    const d = v[i] + si;
    const u = 1 / d;
    const j = group[i];
    S[j] += u;
    T[j] += u * y[i];
    Q[j] += u * y[i] * y[i];
    prod *= d;
    if (prod < 1e-250 || prod > 1e250) { logD += Math.log(prod); prod = 1; }
  }
  return { S, T, Q, logD: logD + Math.log(prod) };
}

interface Gls { beta: number; info: number; logLik: number }

/**
 * μ̂, 1′V⁻¹1 and the restricted log-likelihood (metafor's, with its ½ log|X′X| term) at σ²_outer,
 * in O(G) from the group sums: V_j⁻¹ = D⁻¹ − c_j·uu′ with c_j = σ²_outer/(1 + σ²_outer·S_j), so
 * r′V⁻¹r = Σ_j [Q_j − 2μT_j + μ²S_j − c_j(T_j − μS_j)²] and log|V| = Σ log d + Σ_j log(1 + σ²_outer·S_j).
 */
function gls(g: GroupSums, k: number, so: number): Gls {
  let info = 0;
  let xy = 0;
  let logDetV = g.logD;
  for (let j = 0; j < g.S.length; j++) {
    const c = so / (1 + so * g.S[j]);
    info += g.S[j] - c * g.S[j] * g.S[j];
    xy += g.T[j] - c * g.S[j] * g.T[j];
    logDetV += Math.log1p(so * g.S[j]);
  }
  const beta = xy / info;
  let rVr = 0;
  for (let j = 0; j < g.S.length; j++) {
    const c = so / (1 + so * g.S[j]);
    const e = g.T[j] - beta * g.S[j];
    rVr += g.Q[j] - 2 * beta * g.T[j] + beta * beta * g.S[j] - c * e * e;
  }
  return { beta, info, logLik: -0.5 * ((k - 1) * Math.log(2 * Math.PI) - Math.log(k) + logDetV + Math.log(info) + rVr) };
}

/** The restricted log-likelihood at (σ²_outer, σ²_inner): what the fit maximizes (for checks). */
export function multilevelLogLik(y: Float64Array, v: Float64Array, group: Int32Array, so: number, si: number): number {
  let G = 0;
  for (let i = 0; i < group.length; i++) G = Math.max(G, group[i] + 1);
  return gls(groupSums(y, v, group, G, si), y.length, so).logLik;
}

/**
 * Fit by REML: the likelihood profiled over σ²_outer (an O(G) search for each σ²_inner, from the
 * group sums), maximized over σ²_inner (an O(k) pass per value), both by a scan and Brent's method
 * (optimize.ts) from 0 to twice the effects' variance. Needs k ≥ 2; with one group σ²_outer is
 * not identified (the model is for two groups or more). `level` is the confidence level.
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
  const hi = 2 * spread;
  // Equal effects: every residual is 0, so added variance only lowers the likelihood (both σ² are 0).
  const outerAt = (sums: GroupSums) => (hi === 0 ? 0 : maximizeNonNegative((so) => gls(sums, k, so).logLik, hi));
  const profile = (si: number) => { const sums = groupSums(y, v, group, G, si); return gls(sums, k, outerAt(sums)).logLik; };
  const si = hi === 0 ? 0 : maximizeNonNegative(profile, hi);
  const sums = groupSums(y, v, group, G, si);
  const so = outerAt(sums);
  const g = gls(sums, k, so);
  const se = Math.sqrt(1 / g.info);
  const df = k - 1;
  const crit = tQuantile(1 - (1 - level) / 2, df);
  const piHalf = k >= 3 ? tQuantile(1 - (1 - level) / 2, k - 2) * Math.sqrt(se * se + so + si) : NaN;
  return {
    k, groups: G, estimate: g.beta, se, df, p: twoSidedP(g.beta / se, df), ci_lo: g.beta - crit * se, ci_hi: g.beta + crit * se,
    sigma2_outer: so, sigma2_inner: si, logLik: g.logLik, pi_lo: g.beta - piHalf, pi_hi: g.beta + piHalf,
  };
}
