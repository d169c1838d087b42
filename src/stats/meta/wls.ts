/**
 * Weighted least squares with a few predictors, and the traces of the projection
 * P = W − W X (X′WX)⁻¹ X′W that the τ² estimators need — in O(k·p²), never forming the k × k P
 * (a meta-analysis of 10,000 cells would need 800 MB for it).
 */

/** A design: its columns (the first is the intercept's ones), each of length k. */
export type Design = readonly Float64Array[];

export type Matrix = number[][];

/** x^n for the small whole powers used here (0 to 3), by multiplication. */
const pow = (x: number, n: number) => (n === 0 ? 1 : n === 1 ? x : n === 2 ? x * x : x * x * x);

/** The intercept-only design of k rows. */
export const interceptOnly = (k: number): Design => [new Float64Array(k).fill(1)];

/** The inverse of a small symmetric positive-definite matrix (Gauss–Jordan with partial pivoting); undefined when singular. */
export function invert(m: Matrix): Matrix | undefined {
  const p = m.length;
  const a = m.map((row, i) => [...row, ...Array.from({ length: p }, (_, j) => (i === j ? 1 : 0))]);
  const scale = Math.max(...m.map((row, i) => Math.abs(row[i])), 0);
  for (let c = 0; c < p; c++) {
    let piv = c;
    for (let r = c + 1; r < p; r++) if (Math.abs(a[r][c]) > Math.abs(a[piv][c])) piv = r;
    if (!(Math.abs(a[piv][c]) > 1e-13 * scale)) return undefined;
    [a[c], a[piv]] = [a[piv], a[c]];
    const d = a[c][c];
    for (let j = 0; j < 2 * p; j++) a[c][j] /= d;
    for (let r = 0; r < p; r++) {
      if (r === c || a[r][c] === 0) continue;
      const f = a[r][c];
      for (let j = 0; j < 2 * p; j++) a[r][j] -= f * a[c][j];
    }
  }
  return a.map((row) => row.slice(p));
}

/** X′ diag(w^power) X. */
export function crossW(X: Design, w: Float64Array, power: number): Matrix {
  const p = X.length;
  const out: Matrix = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (let a = 0; a < p; a++) {
    for (let b = a; b < p; b++) {
      let s = 0;
      const xa = X[a];
      const xb = X[b];
      for (let i = 0; i < xa.length; i++) s += pow(w[i], power) * xa[i] * xb[i];
      out[a][b] = s;
      out[b][a] = s;
    }
  }
  return out;
}

export const matMul = (a: Matrix, b: Matrix): Matrix => a.map((row) => b[0].map((_, j) => row.reduce((s, v, k) => s + v * b[k][j], 0)));
/** tr(A·B) of two symmetric matrices. */
export const traceProduct = (a: Matrix, b: Matrix): number => a.reduce((s, row, i) => s + row.reduce((t, v, j) => t + v * b[j][i], 0), 0);

export interface WlsFit {
  /** Coefficients (X′WX)⁻¹ X′W y. */
  readonly beta: number[];
  /** (X′WX)⁻¹. */
  readonly A: Matrix;
  /** Residuals y − Xβ. */
  readonly r: Float64Array;
  readonly w: Float64Array;
  /** tr(P) and tr(PP) when the fit computed them itself (heavy rows: see heavySplit). */
  readonly traces?: { readonly P: number; readonly PP: number };
}

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

/** A row is heavy when its weight is more than this many times the median weight (see heavySplit). */
const HEAVY = 1e4;
/** The most heavy rows split off (the split inverts an h × h matrix). */
const MAX_HEAVY = 200;

/** The heavy rows (weight above HEAVY × the median weight) and that median; none, in one O(k) pass, when max/min ≤ HEAVY. */
function heavyRows(w: Float64Array): { rows: number[]; median: number } {
  let lo = Infinity, hi = 0;
  for (const x of w) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
  if (!(hi > HEAVY * lo)) return { rows: [], median: NaN };
  const sorted = Float64Array.from(w).sort();
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  const rows: number[] = [];
  for (let i = 0; i < w.length; i++) if (w[i] > HEAVY * median) rows.push(i);
  return { rows, median };
}

const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
const trace = (m: Matrix) => m.reduce((s, row, i) => s + row[i], 0);

/**
 * The fit with the heavy rows H (weights far above the others', a variance of 1e-30 beside 0.01) split
 * off by the Woodbury identity, so no sum mixes their weights with the others'. Each heavy row is taken
 * as two rows of the same effect (weights add): one of the typical weight λ (the median), kept with the
 * other rows — so that they identify β even when a moderator level holds heavy rows only — and one of
 * w − λ, split off. With B = (X′W_λX)⁻¹ and β_λ the fit of the kept rows, C = X_H B X_H′,
 * M = V_H + C (V_H = (W_H − λ)⁻¹, tiny, added to a finite matrix) and g = M⁻¹(y_H − X_H β_λ):
 * β = β_λ + B X_H′ g, (X′WX)⁻¹ = A = B − D X_H B with D = B X_H′ M⁻¹, the heavy residuals r_H = V_H g
 * exactly, and P's blocks P_OO = W_O − W_O X_O A X_O′ W_O, P_OH = −W_O X_O (λ A X_H′ + D) and
 * P_HH = λI − λ² X_H A X_H′ − λ(X_H D + D′X_H′) + M⁻¹, whence tr P and tr PP as sums of finite terms.
 * Undefined when M or X′W_λX is singular (then the plain fit is tried).
 */
function heavySplit(y: Float64Array, X: Design, w: Float64Array, H: readonly number[], lambda: number): WlsFit | undefined {
  const heavy = new Uint8Array(y.length);
  for (const i of H) heavy[i] = 1;
  const wKept = w.map((x, i) => (heavy[i] ? lambda : x));
  const wO = w.map((x, i) => (heavy[i] ? 0 : x));
  const B = invert(crossW(X, wKept, 1));
  if (!B) return undefined;
  const p = X.length;
  const xwy = X.map((col) => { let s = 0; for (let i = 0; i < y.length; i++) s += wKept[i] * col[i] * y[i]; return s; });
  const betaK = B.map((row) => dot(row, xwy));
  const xH = H.map((i) => X.map((col) => col[i]));
  const bxH = xH.map((x) => B.map((row) => dot(row, x)));
  const Minv = invert(H.map((i, a) => H.map((_, b) => dot(xH[a], bxH[b]) + (a === b ? 1 / (w[i] - lambda) : 0))));
  if (!Minv) return undefined;
  const g = Minv.map((row) => dot(row, xH.map((x, a) => y[H[a]] - dot(x, betaK))));
  const D = B.map((_, r) => H.map((__, b) => bxH.reduce((s, bx, a) => s + bx[r] * Minv[a][b], 0)));
  const beta = betaK.map((b0, r) => b0 + bxH.reduce((s, bx, a) => s + bx[r] * g[a], 0));
  const A = splitCovariance(B, bxH, xH, Minv, H.map((i) => 1 / (w[i] - lambda)))
    ?? B.map((row, r) => row.map((x, c) => x - D[r].reduce((s, d, b) => s + d * bxH[b][c], 0)));
  const r = new Float64Array(y.length);
  for (let i = 0; i < y.length; i++) { let f = 0; for (let j = 0; j < p; j++) f += X[j][i] * beta[j]; r[i] = y[i] - f; }
  H.forEach((i, a) => { r[i] = g[a] / (w[i] - lambda); });
  return { beta, A, r, w, traces: splitTraces(X, wO, xH, A, D, Minv, lambda) };
}

/**
 * (X′WX)⁻¹ = B − Q M⁻¹ Q′ (Q = B X_H′, the rows of bxH) without its cancellation: in a direction the
 * heavy rows pin, the difference of two O(1) terms is O(V_H) (the SE of an intercept pinned by a cell of
 * variance 1e-30 came out 0 or NaN). With C = X_H Q and Π = I − Q C⁻¹ X_H it is Π B Π′ + Q C⁻¹ V_H M⁻¹ Q′
 * (C⁻¹ − M⁻¹ = C⁻¹ V_H M⁻¹): a quadratic form of B, null on the pinned directions, plus a small
 * product. Undefined when C is singular (more heavy rows than coefficients).
 */
function splitCovariance(B: Matrix, bxH: readonly number[][], xH: readonly number[][], Minv: Matrix, vH: readonly number[]): Matrix | undefined {
  const Cinv = invert(xH.map((x) => bxH.map((bx) => dot(x, bx))));
  if (!Cinv) return undefined;
  const p = B.length;
  // Π = I − Q C⁻¹ X_H; QC[r][a] = (Q C⁻¹)[r][a].
  const QC = B.map((_, r) => Cinv.map((__, a) => bxH.reduce((s, bx, c) => s + bx[r] * Cinv[c][a], 0)));
  const Pi = B.map((_, r) => B.map((__, c) => (r === c ? 1 : 0) - QC[r].reduce((s, q, a) => s + q * xH[a][c], 0)));
  const PiB = matMul(Pi, B);
  const K = Cinv.map((row, a) => Minv.map((_, b) => row.reduce((s, ci, c) => s + ci * vH[c] * Minv[c][b], 0)));
  return Array.from({ length: p }, (_, r) => Array.from({ length: p }, (__, c) => {
    let s = 0;
    for (let j = 0; j < p; j++) s += PiB[r][j] * Pi[c][j];
    for (let a = 0; a < K.length; a++) for (let b = 0; b < K.length; b++) s += bxH[a][r] * K[a][b] * bxH[b][c];
    return s;
  }));
}

/** tr P and tr PP from heavySplit's blocks of P (O: the other rows, weights wO, 0 on the heavy rows). */
function splitTraces(X: Design, wO: Float64Array, xH: readonly number[][], A: Matrix, D: Matrix, Minv: Matrix, lambda: number): { P: number; PP: number } {
  const c2 = crossW(X, wO, 2);
  const b = matMul(A, c2);
  let sw = 0, sw2 = 0;
  for (const x of wO) { sw += x; sw2 += x * x; }
  const axH = xH.map((x) => A.map((row) => dot(row, x)));
  const E = A.map((_, r) => xH.map((__, a) => lambda * axH[a][r] + D[r][a]));
  const EE = E.map((row) => E.map((other) => dot(row, other)));
  const xD = xH.map((x) => Minv.map((_, c) => x.reduce((s, xi, r) => s + xi * D[r][c], 0)));
  const hh = xH.map((x, a) => xH.map((__, c) => (a === c ? lambda : 0) - lambda * lambda * dot(x, axH[c]) - lambda * (xD[a][c] + xD[c][a]) + Minv[a][c]));
  const P = sw - trace(b) + trace(hh);
  const PP = sw2 - 2 * traceProduct(A, crossW(X, wO, 3)) + traceProduct(b, b) + 2 * traceProduct(EE, c2) + traceProduct(hh, hh);
  return { P, PP };
}

/**
 * The weighted least-squares fit; undefined when X′WX is singular. With moderators and a few rows
 * whose weights are far above the others', those rows are split off (heavySplit), as the
 * intercept-only fit measures from its heaviest row.
 */
export function wls(y: Float64Array, X: Design, w: Float64Array): WlsFit | undefined {
  if (X.length === 1) return weightedMean(y, w);
  const H = heavyRows(w);
  const split = H.rows.length > 0 && H.rows.length <= MAX_HEAVY ? heavySplit(y, X, w, H.rows, H.median) : undefined;
  if (split) return split;
  const A = invert(crossW(X, w, 1));
  if (!A) return undefined;
  const p = X.length;
  const xwy = X.map((col) => { let s = 0; for (let i = 0; i < y.length; i++) s += w[i] * col[i] * y[i]; return s; });
  const beta = A.map((row) => row.reduce((s, v, j) => s + v * xwy[j], 0));
  const r = new Float64Array(y.length);
  for (let i = 0; i < y.length; i++) {
    let f = 0;
    for (let j = 0; j < p; j++) f += X[j][i] * beta[j];
    r[i] = y[i] - f;
  }
  return { beta, A, r, w };
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
  const trB = b.reduce((s, row, i) => s + row[i], 0);
  return { P: weightedSum(f, 1, 0) - trB, PP: weightedSum(f, 2, 0) - 2 * traceProduct(f.A, crossW(X, f.w, 3)) + traceProduct(b, b) };
}

/** Weights 1/(vᵢ + τ²). */
export function weights(v: Float64Array, tau2: number): Float64Array {
  const w = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) w[i] = 1 / (v[i] + tau2);
  return w;
}
