/**
 * The three-level model of Konstantopoulos (2011), as metafor's
 * rma.mv(yi, vi, random = ~ 1 | outer/inner, test = "t", dfs = "contain") fits it by REML: effect i of group j is
 * yᵢ = μ + u_j + wᵢ + εᵢ with u_j ~ N(0, σ²_outer), wᵢ ~ N(0, σ²_inner), εᵢ ~ N(0, vᵢ). The
 * marginal covariance is block-diagonal, each block diag(vᵢ + σ²_inner) + σ²_outer·11′, so its
 * inverse and determinant follow from Sherman–Morrison — no k × k matrix is formed.
 */
import { tQuantile, twoSidedP } from './distributions.js';
import { maximizeNonNegative } from './optimize.js';
import { scaledProblem } from './scale.js';
import { checkLevel } from '../normal.js';

export interface MultilevelFit {
  readonly k: number;
  /** The number of outer groups (studies). */
  readonly groups: number;
  readonly estimate: number;
  readonly se: number;
  /** Degrees of freedom of the t interval and test: groups − 1 (containment). */
  readonly df: number;
  readonly p: number;
  readonly ci_lo: number;
  readonly ci_hi: number;
  readonly sigma2_outer: number;
  readonly sigma2_inner: number;
  /** The restricted log-likelihood at the estimates (metafor's logLik, REML). */
  readonly logLik: number;
  /** Prediction interval of a new effect: estimate ± t_{groups−1}·√(se² + σ²_outer + σ²_inner) (NaN below 3 groups). */
  readonly pi_lo: number;
  readonly pi_hi: number;
}

/**
 * Sums over each outer group at a given σ²_inner, with u = 1/(vᵢ + σ²_inner): S = Σu, T = Σu·y,
 * W = Σu(y − T/S)² (the within-group weighted sum of squares, from a second pass: Q − T²/S would
 * cancel), and Σ log(vᵢ + σ²_inner).
 */
interface GroupSums { readonly S: Float64Array; readonly T: Float64Array; readonly W: Float64Array; readonly logD: number }

function groupSums(y: Float64Array, v: Float64Array, group: Int32Array, G: number, si: number): GroupSums {
  const S = new Float64Array(G);
  const T = new Float64Array(G);
  const W = new Float64Array(G);
  // Σ log d as the log of running products (one logarithm per many effects, the product kept in range).
  let logD = 0;
  let prod = 1;
  for (let i = 0; i < y.length; i++) {
    const d = v[i] + si;
    S[group[i]] += 1 / d;
    T[group[i]] += y[i] / d;
    prod *= d;
    if (prod < 1e-250 || prod > 1e250) { logD += Math.log(prod); prod = 1; }
  }
  for (let i = 0; i < y.length; i++) W[group[i]] += (y[i] - T[group[i]] / S[group[i]]) ** 2 / (v[i] + si);
  return { S, T, W, logD: logD + Math.log(prod) };
}

interface Gls { beta: number; info: number; logLik: number }

/**
 * μ̂, 1′V⁻¹1 and the restricted log-likelihood (metafor's, with its ½ log|X′X| term) at σ²_outer,
 * in O(G) from the group sums: V_j⁻¹ = D⁻¹ − c_j·uu′ with c_j = σ²_outer/(1 + σ²_outer·S_j), so
 * 1′V_j⁻¹1 = S_j/(1 + σ²_outer·S_j), 1′V_j⁻¹y = T_j/(1 + σ²_outer·S_j),
 * r′V_j⁻¹r = W_j + (T_j − μS_j)²/(S_j(1 + σ²_outer·S_j)) and log|V| = Σ log d + Σ_j log(1 + σ²_outer·S_j)
 * (each written without the differences that cancel when σ²_outer·S_j is large).
 */
function gls(g: GroupSums, k: number, so: number): Gls {
  let info = 0;
  let xy = 0;
  let logDetV = g.logD;
  for (let j = 0; j < g.S.length; j++) {
    info += g.S[j] / (1 + so * g.S[j]);
    xy += g.T[j] / (1 + so * g.S[j]);
    logDetV += Math.log1p(so * g.S[j]);
  }
  const beta = xy / info;
  let rVr = 0;
  for (let j = 0; j < g.S.length; j++) {
    const e = g.T[j] - beta * g.S[j];
    rVr += g.W[j] + (e * e) / (g.S[j] * (1 + so * g.S[j]));
  }
  return { beta, info, logLik: -0.5 * ((k - 1) * Math.log(2 * Math.PI) - Math.log(k) + logDetV + Math.log(info) + rVr) };
}

/** The restricted log-likelihood at (σ²_outer, σ²_inner): what the fit maximizes (for checks). */
export function multilevelLogLik(y: Float64Array, v: Float64Array, group: Int32Array, so: number, si: number): number {
  let G = 0;
  for (let i = 0; i < group.length; i++) G = Math.max(G, group[i] + 1);
  return gls(groupSums(y, v, group, G, si), y.length, so).logLik;
}

/** The number of groups and whether one holds two effects or more (else σ²_outer and σ²_inner are not told apart). */
export function multilevelGroups(group: Int32Array): { groups: number; identified: boolean } {
  const counts = new Map<number, number>();
  for (let i = 0; i < group.length; i++) counts.set(group[i], (counts.get(group[i]) ?? 0) + 1);
  return { groups: counts.size, identified: [...counts.values()].some((n) => n >= 2) };
}

/** The smallest number of groups for an interval: with 2, t(1) is no interval worth giving. */
export const MIN_GROUPS_INTERVAL = 3;

/**
 * Fit by REML: the likelihood profiled over σ²_outer (an O(G) search for each σ²_inner, from the
 * group sums), maximized over σ²_inner (an O(k) pass per value), both by a scan and Brent's method
 * (optimize.ts) from 0 to twice the effects' variance, on the problem scaled by its typical
 * sampling SD (scale.ts). The intercept's interval and test use t with the containment degrees of
 * freedom G − 1 over the G outer groups (metafor's dfs = "contain"); the prediction interval
 * estimate ± t_{G−1}·√(se² + σ²_outer + σ²_inner), as metafor's predict gives it. Both are NaN
 * below 3 groups. Undefined with fewer than 2 groups, when no group holds two effects (the two
 * variances are not identified), or when an effect lies out of reach of the others (scale.ts).
 * A RangeError unless 0 < level < 1.
 */
export function fitMultilevel(y: Float64Array, v: Float64Array, group: Int32Array, level = 0.95): MultilevelFit | undefined {
  checkLevel(level, 'fitMultilevel');
  const k = y.length;
  const { groups: G, identified } = multilevelGroups(group);
  const z = k < 3 || G < 2 || !identified ? undefined : scaledProblem(y, v);
  if (!z) return undefined;
  const c = z.c;
  const f = fitScaled(z.y, z.v, group, G);
  const se = f.se * c;
  const estimate = f.beta * c;
  const df = G - 1;
  const half = G >= MIN_GROUPS_INTERVAL ? tQuantile(1 - (1 - level) / 2, df) : NaN;
  const piHalf = half * Math.sqrt(se * se + (f.so + f.si) * c * c);
  return {
    k, groups: G, estimate, se, df, p: G >= MIN_GROUPS_INTERVAL ? twoSidedP(estimate / se, df) : NaN, ci_lo: estimate - half * se, ci_hi: estimate + half * se,
    sigma2_outer: f.so * c * c, sigma2_inner: f.si * c * c, logLik: f.logLik - (k - 1) * Math.log(c), pi_lo: estimate - piHalf, pi_hi: estimate + piHalf,
  };
}

/** The REML fit of the scaled problem (groups numbered 0…G−1 as given; a number may be unused). */
function fitScaled(y: Float64Array, v: Float64Array, group: Int32Array, used: number) {
  const k = y.length;
  let G = used;
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
  return { beta: g.beta, se: Math.sqrt(1 / g.info), so, si, logLik: g.logLik };
}
