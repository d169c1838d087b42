/**
 * Weighted least squares with a few rows whose weights are far above the others' (a variance of 1e-30
 * beside 0.01): the Woodbury split of those rows, and the traces of P = W − WX(X′WX)⁻¹X′W from its blocks.
 */
import { crossW, dot, invert, matMul, trace, traceProduct, type Design, type Matrix, type WlsFit } from './matrix.js';

/** A row is heavy when its weight is more than this many times the median weight (see heavySplit). */
const HEAVY = 1e4;
/**
 * The split's coefficients and residuals are taken only when the largest weight is above this many times the typical one
 * (below it, its traces only): there the plain fit (X′WX inverted) is within 4e-7 of a QR fit (1–5 precise rows,
 * bench/meta-heavy-gate.ts), and the split of near-parallel heavy rows (Egger's [1, √v], √v ≈ 0) is not (1e-4 and worse).
 */
export const GATE = 1e7;
/** The most heavy rows split off (the split inverts an h × h matrix). */
export const MAX_HEAVY = 200;

/**
 * The heavy rows (weight above HEAVY × the median weight), that median, and whether the largest weight is above GATE × it;
 * none, in one O(k) pass, when max/min ≤ HEAVY.
 * When the median is itself heavy (three cells of variance 1e-30 among five), the median of the rows within HEAVY × the
 * smallest weight stands for it.
 */
export function heavyRows(w: Float64Array): { rows: number[]; median: number; extreme: boolean } {
  let lo = Infinity, hi = 0;
  for (const x of w) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
  if (!(hi > HEAVY * lo)) return { rows: [], median: NaN, extreme: false };
  const sorted = Float64Array.from(w).sort();
  const mid = (xs: Float64Array) => xs[Math.floor((xs.length - 1) / 2)];
  const median = mid(sorted);
  const typical = median > HEAVY * lo ? mid(sorted.filter((x) => x <= HEAVY * lo)) : median;
  const rows: number[] = [];
  for (let i = 0; i < w.length; i++) if (w[i] > HEAVY * typical) rows.push(i);
  return { rows, median: typical, extreme: hi > GATE * typical };
}

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
export function heavySplit(y: Float64Array, X: Design, w: Float64Array, H: readonly number[], lambda: number, lift?: Lift): WlsFit | undefined {
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
  return { beta, A, r, w, traces: splitTraces(X, wO, xH, A, D, Minv, lambda, lift) };
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

/**
 * Heavy rows compressed (heavy-rank.ts): the full P is Pc ⊕ 0 + J P_s J′, P_s that of the split problem whose
 * heavy rows are pseudo-rows and J = I ⊕ L lifting them back to the heavy rows they stand for; Pc the contrasts'.
 */
export interface Lift { readonly L: Matrix; readonly Pc: Matrix }

/**
 * tr P and tr PP from heavySplit's blocks of P (O: the other rows, weights wO, 0 on the heavy rows); with a lift,
 * those of Pc ⊕ 0 + J P J′: tr(P J′J) + tr Pc and tr((P J′J)²) + ‖Pc‖² + 2 tr(Pc L P_HH L′).
 */
function splitTraces(X: Design, wO: Float64Array, xH: readonly number[][], A: Matrix, D: Matrix, Minv: Matrix, lambda: number,
  lift?: Lift): { P: number; PP: number } {
  const c2 = crossW(X, wO, 2);
  const b = matMul(A, c2);
  let sw = 0, sw2 = 0;
  for (const x of wO) { sw += x; sw2 += x * x; }
  const axH = xH.map((x) => A.map((row) => dot(row, x)));
  const E = A.map((_, r) => xH.map((__, a) => lambda * axH[a][r] + D[r][a]));
  const xD = xH.map((x) => Minv.map((_, c) => x.reduce((s, xi, r) => s + xi * D[r][c], 0)));
  const hh = xH.map((x, a) => xH.map((__, c) => (a === c ? lambda : 0) - lambda * lambda * dot(x, axH[c]) - lambda * (xD[a][c] + xD[c][a]) + Minv[a][c]));
  const G = lift ? xH.map((_, a) => xH.map((__, c) => lift.L.reduce((s, row) => s + row[a] * row[c], 0))) : undefined;
  const EE = E.map((row) => E.map((other) => (G ? dot(row, G.map((g) => dot(g, other))) : dot(row, other))));
  const hG = G ? matMul(hh, G) : hh;
  let P = sw - trace(b) + trace(hG);
  let PP = sw2 - 2 * traceProduct(A, crossW(X, wO, 3)) + traceProduct(b, b) + 2 * traceProduct(EE, c2) + traceProduct(hG, hG);
  if (lift) {
    const { L, Pc } = lift;
    const LhL = L.map((li) => L.map((lj) => dot(li, hh.map((row) => dot(row, lj)))));
    P += trace(Pc);
    PP += traceProduct(Pc, Pc) + 2 * traceProduct(Pc, LhL);
  }
  return { P, PP };
}
