/**
 * Weighted least squares with a few predictors, and the traces of the projection
 * P = W − W X (X′WX)⁻¹ X′W that the τ² estimators need — in O(k·p²), never forming the k × k P
 * (a meta-analysis of 10,000 cells would need 800 MB for it).
 */
import { crossW, invert, matMul, pow, trace, traceProduct, type Design, type WlsFit } from './matrix.js';
import { heavyFit } from './heavy-rank.js';

export { crossW, interceptOnly, invert, matMul, traceProduct, type Design, type Matrix, type WlsFit } from './matrix.js';

/**
 * The weighted mean (the intercept-only fit) measured from the effect of the largest weight, so a
 * cell whose weight dwarfs the others' (a variance of 1e-30 beside 0.01) keeps an exact residual:
 * β = y_m + Σwᵢ(yᵢ − y_m)/Σw, rᵢ = (yᵢ − y_m) − Σwⱼ(yⱼ − y_m)/Σw.
 */
function weightedMean(y: Float64Array, w: Float64Array): WlsFit | undefined {
  let S = 0, m = 0;
  for (let i = 0; i < w.length; i++) { S += w[i]; if (w[i] > w[m]) m = i; }
  if (!(S > 0) || !Number.isFinite(S)) return undefined;
  let shift = 0;
  for (let i = 0; i < y.length; i++) shift += w[i] * (y[i] - y[m]);
  shift /= S;
  const r = new Float64Array(y.length);
  for (let i = 0; i < y.length; i++) r[i] = (y[i] - y[m]) - shift;
  return { beta: [y[m] + shift], A: [[1 / S]], r, w };
}

/**
 * The weighted least-squares fit; undefined when X′WX is singular. With moderators and a few rows
 * whose weights are far above the others', those rows are split off (heavySplit), as the
 * intercept-only fit measures from its heaviest row: for tr P and tr PP always (the plain sums lose
 * 1e-4 of tr P and all of tr PP at 1e5 × the typical weight), for the coefficients and residuals only
 * above GATE × the typical weight (below it the plain fit is the more exact, bench/meta-heavy-gate.ts).
 */
export function wls(y: Float64Array, X: Design, w: Float64Array): WlsFit | undefined {
  if (X.length === 1) return weightedMean(y, w);
  const split = heavyFit(y, X, w);
  if (split?.extreme) return split.fit;
  const A = invert(crossW(X, w, 1));
  if (!A) return split?.fit;
  const p = X.length;
  const xwy = X.map((col) => { let s = 0; for (let i = 0; i < y.length; i++) s += w[i] * col[i] * y[i]; return s; });
  const beta = A.map((row) => row.reduce((s, v, j) => s + v * xwy[j], 0));
  const r = new Float64Array(y.length);
  for (let i = 0; i < y.length; i++) {
    let f = 0;
    for (let j = 0; j < p; j++) f += X[j][i] * beta[j];
    r[i] = y[i] - f;
  }
  return { beta, A, r, w, traces: split?.fit.traces };
}

/** Σ wᵢ^a rᵢ^b (a, b ≤ 3). */
export function weightedSum(f: WlsFit, a: number, b: number): number {
  let s = 0;
  for (let i = 0; i < f.r.length; i++) s += pow(f.w[i], a) * pow(f.r[i], b);
  return s;
}

/**
 * Σ_{j≠i} xⱼ for each i, from prefix and suffix sums of the nonnegative xⱼ: no subtraction, so
 * exact to rounding even when one xᵢ dwarfs the rest (where Σx − xᵢ would be 0 or noise).
 */
export function othersSums(x: Float64Array): Float64Array {
  const out = new Float64Array(x.length);
  let before = 0;
  for (let i = 0; i < x.length; i++) { out[i] = before; before += x[i]; }
  let after = 0;
  for (let i = x.length - 1; i >= 0; i--) { out[i] += after; after += x[i]; }
  return out;
}

/**
 * tr(P) and tr(PP) of the intercept-only design, P = W − ww′/S (S = Σw), by sums of positive
 * terms: Pᵢᵢ = wᵢ·Σ_{j≠i}wⱼ/S, and Σ_{i≠j}Pᵢⱼ² = Σᵢ wᵢ²·Σ_{j≠i}wⱼ²/S².
 */
function interceptTraces(w: Float64Array): { P: number; PP: number } {
  let S = 0;
  for (const x of w) S += x;
  const others = othersSums(w);
  const others2 = othersSums(w.map((x) => x * x));
  let P = 0, PP = 0;
  for (let i = 0; i < w.length; i++) {
    const d = (w[i] * others[i]) / S;
    P += d;
    PP += d * d + (w[i] * w[i] * others2[i]) / (S * S);
  }
  return { P, PP };
}

/** tr(P) = Σw − tr(A X′W²X) (intercept-only: a sum of positive terms). */
export function traceP(f: WlsFit, X: Design): number {
  if (f.traces) return f.traces.P;
  return X.length === 1 ? interceptTraces(f.w).P : weightedSum(f, 1, 0) - traceProduct(f.A, crossW(X, f.w, 2));
}

/**
 * tr(P) and tr(PP) = Σw² − 2 tr(A X′W³X) + tr((A X′W²X)²), from one product A X′W²X (intercept-only:
 * sums of positive terms, one walk): the information of every Fisher-scoring step needs both.
 */
export function traces(f: WlsFit, X: Design): { P: number; PP: number } {
  if (f.traces) return f.traces;
  if (X.length === 1) return interceptTraces(f.w);
  const b = matMul(f.A, crossW(X, f.w, 2));
  return { P: weightedSum(f, 1, 0) - trace(b), PP: weightedSum(f, 2, 0) - 2 * traceProduct(f.A, crossW(X, f.w, 3)) + traceProduct(b, b) };
}

/** Weights 1/(vᵢ + τ²). */
export function weights(v: Float64Array, tau2: number): Float64Array {
  const w = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) w[i] = 1 / (v[i] + tau2);
  return w;
}
