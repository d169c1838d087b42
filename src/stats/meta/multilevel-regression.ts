/**
 * Meta-regression in the three-level model, as metafor's rma.mv(yi, vi, mods = X, random = ~ 1 |
 * outer/inner, dfs = "contain") fits it by REML: y = Xβ + u_outer + w_inner + ε with the
 * covariance of multilevel.ts. Per outer group j, with dᵢ = vᵢ + σ²_inner, Sⱼ = Σ 1/dᵢ,
 * aⱼ = Σ xᵢ/dᵢ, bⱼ = Σ yᵢ/dᵢ and cⱼ = σ²_outer/(1 + σ²_outer·Sⱼ) (Sherman–Morrison):
 *   X′V⁻¹X = Σ xᵢxᵢ′/dᵢ − Σⱼ cⱼ aⱼaⱼ′,  X′V⁻¹y = Σ xᵢyᵢ/dᵢ − Σⱼ cⱼ aⱼbⱼ,
 *   y′V⁻¹y = Σ yᵢ²/dᵢ − Σⱼ cⱼ bⱼ²,  log|V| = Σ log dᵢ + Σⱼ log(1 + σ²_outer·Sⱼ),
 * and the restricted log-likelihood −½[(k − p) log 2π − log|X′X| + log|V| + log|X′V⁻¹X| + r′V⁻¹r]
 * with r′V⁻¹r = y′V⁻¹y − β̂′X′V⁻¹y, maximized as multilevel.ts does (the sums for a σ²_inner
 * once, then O(groups·p²) per σ²_outer). Tests: z, or t with metafor's containment degrees of
 * freedom — for each coefficient, the number of outer groups when its column is constant within
 * every group, else the number of effects, minus p (at least 1); the test of the moderators (every
 * coefficient but the intercept) is χ²_m (z) or F = QM/m with (m, the smallest of their dfs).
 * The share of each level's variance the moderators explain is max(0, 1 − σ²_mods/σ²_null).
 */
import { chiSquareUpper, fUpper, tQuantile, twoSidedP } from './distributions.js';
import { maximizeNonNegative } from './optimize.js';
import { scaledProblem } from './scale.js';
import { fitMultilevel } from './multilevel.js';
import { invert, crossW, type Design, type Matrix } from './wls.js';
import { checkLevel } from '../normal.js';
import type { Coefficient } from './univariate.js';

export interface MultilevelRegression {
  readonly k: number;
  readonly groups: number;
  readonly coefficients: readonly (Coefficient & { readonly df: number })[];
  readonly QM: number;
  readonly QM_df1: number;
  readonly QM_df2: number;
  readonly QM_p: number;
  readonly sigma2_outer: number;
  readonly sigma2_inner: number;
  /** The share of σ²_outer and σ²_inner of the model without moderators that the moderators explain (NaN when that σ² is 0). */
  readonly explained_outer: number;
  readonly explained_inner: number;
  readonly logLik: number;
}

interface Sums { S: Float64Array; a: number[][]; b: Float64Array; XX: Matrix; Xy: number[]; yy: number; logD: number }

function sums(y: Float64Array, v: Float64Array, X: Design, group: Int32Array, G: number, si: number): Sums {
  const p = X.length;
  const S = new Float64Array(G);
  const a = Array.from({ length: G }, () => new Array<number>(p).fill(0));
  const b = new Float64Array(G);
  const w = Float64Array.from(v, (x) => 1 / (x + si));
  const Xy = new Array<number>(p).fill(0);
  let yy = 0;
  let logD = 0;
  for (let i = 0; i < y.length; i++) {
    const g = group[i];
    S[g] += w[i];
    b[g] += w[i] * y[i];
    yy += w[i] * y[i] * y[i];
    logD -= Math.log(w[i]);
    for (let c = 0; c < p; c++) { a[g][c] += w[i] * X[c][i]; Xy[c] += w[i] * X[c][i] * y[i]; }
  }
  return { S, a, b, XX: crossW(X, w, 1), Xy, yy, logD };
}

/** The log-determinant of a small symmetric positive-definite matrix (Cholesky); NaN when it is not. */
function logDet(m: Matrix): number {
  const p = m.length;
  const L = m.map((row) => [...row]);
  let s = 0;
  for (let j = 0; j < p; j++) {
    for (let k = 0; k < j; k++) for (let i = j; i < p; i++) L[i][j] -= L[i][k] * L[j][k];
    if (!(L[j][j] > 0)) return NaN;
    const d = Math.sqrt(L[j][j]);
    for (let i = j; i < p; i++) L[i][j] /= d;
    s += 2 * Math.log(d);
  }
  return s;
}

function gls(t: Sums, so: number, k: number, logXX: number) {
  const p = t.Xy.length;
  const A = t.XX.map((row) => [...row]);
  const r = [...t.Xy];
  let yVy = t.yy;
  let logV = t.logD;
  for (let j = 0; j < t.S.length; j++) {
    const c = so / (1 + so * t.S[j]);
    logV += Math.log1p(so * t.S[j]);
    yVy -= c * t.b[j] * t.b[j];
    for (let u = 0; u < p; u++) {
      r[u] -= c * t.a[j][u] * t.b[j];
      for (let w = 0; w < p; w++) A[u][w] -= c * t.a[j][u] * t.a[j][w];
    }
  }
  const inv = invert(A);
  if (!inv) return undefined;
  const beta = inv.map((row) => row.reduce((s, x, j) => s + x * r[j], 0));
  const rVr = yVy - beta.reduce((s, x, j) => s + x * r[j], 0);
  return { beta, vb: inv, logLik: -0.5 * ((k - p) * Math.log(2 * Math.PI) - logXX + logV + logDet(A) + rVr) };
}

/** Containment df of each column: outer groups when the column is constant within each, else k; minus p, at least 1. */
export function containmentDf(X: Design, group: Int32Array, G: number): number[] {
  const p = X.length;
  return X.map((col) => {
    const first = new Map<number, number>();
    let constant = true;
    for (let i = 0; i < col.length && constant; i++) {
      const f = first.get(group[i]);
      if (f === undefined) first.set(group[i], col[i]); else if (f !== col[i]) constant = false;
    }
    return Math.max(1, (constant ? G : col.length) - p);
  });
}

/** The REML fit of the scaled problem: σ²_outer profiled for each σ²_inner, both by optimize.ts. */
function fitScaled(y: Float64Array, v: Float64Array, X: Design, group: Int32Array, G: number) {
  const k = y.length;
  const logXX = logDet(crossW(X, new Float64Array(k).fill(1), 1));
  const mean = y.reduce((s, x) => s + x, 0) / k;
  const hi = 2 * y.reduce((s, x) => s + (x - mean) ** 2, 0) / (k - 1) || 1;
  const ll = (t: Sums, so: number) => gls(t, so, k, logXX)?.logLik ?? -Infinity;
  const outerAt = (t: Sums) => maximizeNonNegative((so) => ll(t, so), hi);
  const si = maximizeNonNegative((s) => { const t = sums(y, v, X, group, G, s); return ll(t, outerAt(t)); }, hi);
  const t = sums(y, v, X, group, G, si);
  const so = outerAt(t);
  const g = gls(t, so, k, logXX);
  return g && { ...g, so, si };
}

/** The fit with design X (its first column the intercept's ones); undefined when it cannot be fitted or k ≤ p. */
export function fitMultilevelRegression(y: Float64Array, v: Float64Array, X: Design, group: Int32Array, test: 't' | 'z' = 't',
  level = 0.95): MultilevelRegression | undefined {
  checkLevel(level, 'fitMultilevelRegression');
  const k = y.length;
  const p = X.length;
  const G = new Set(group).size;
  const z = k > p && G >= 2 ? scaledProblem(y, v) : undefined;
  const f = z && fitScaled(z.y, z.v, X, group, Math.max(...group) + 1);
  const base = z && fitMultilevel(z.y, z.v, group, level);
  if (!z || !f || !base) return undefined;
  const c = z.c;
  const dfs = test === 'z' ? X.map(() => Infinity) : containmentDf(X, group, G);
  const coefficients = f.beta.map((b, j) => {
    const se = Math.sqrt(f.vb[j][j]) * c;
    const est = b * c;
    const half = tQuantile(1 - (1 - level) / 2, dfs[j]) * se;
    return { estimate: est, se, stat: est / se, p: twoSidedP(est / se, dfs[j]), ci_lo: est - half, ci_hi: est + half, df: dfs[j] };
  });
  const m = p - 1;
  const inv = m > 0 ? invert(f.vb.slice(1).map((row) => row.slice(1))) : undefined;
  const bm = f.beta.slice(1);
  const QM = inv ? bm.reduce((s, bi, i) => s + bi * inv[i].reduce((t, x, j) => t + x * bm[j], 0), 0) : NaN;
  const df2 = Math.min(...dfs.slice(1));
  const explained = (null0: number, mod: number) => (null0 > 0 ? Math.max(0, 1 - mod / null0) : NaN);
  return {
    k, groups: G, coefficients,
    ...(test === 'z' ? { QM, QM_df1: m, QM_df2: Infinity, QM_p: chiSquareUpper(QM, m) } : { QM: QM / m, QM_df1: m, QM_df2: df2, QM_p: fUpper(QM / m, m, df2) }),
    sigma2_outer: f.so * c * c, sigma2_inner: f.si * c * c,
    explained_outer: explained(base.sigma2_outer, f.so), explained_inner: explained(base.sigma2_inner, f.si),
    logLik: f.logLik - (k - p) * Math.log(c),
  };
}
