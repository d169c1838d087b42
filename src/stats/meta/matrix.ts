/** The small dense linear algebra of the meta-analysis fits (p × p matrices, designs as columns). */

/** A design: its columns (the first is the intercept's ones), each of length k. */
export type Design = readonly Float64Array[];

export type Matrix = number[][];

/** x^n for the small whole powers used here (0 to 3), by multiplication. */
export const pow = (x: number, n: number) => (n === 0 ? 1 : n === 1 ? x : n === 2 ? x * x : x * x * x);

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

/**
 * log det of a small symmetric positive-definite matrix (Cholesky: the sum of the log squared pivots); NaN when not positive
 * definite, or when a squared pivot is below 1e-10 of its diagonal entry (the cancellation left fewer than 6 digits of it:
 * a covariance pinned by a cell of variance 1e-30 has an eigenvalue that double precision cannot resolve).
 */
export function logDet(m: Matrix): number {
  const p = m.length;
  const L = m.map(() => new Array<number>(p).fill(0));
  let s = 0;
  for (let j = 0; j < p; j++) {
    let d = m[j][j];
    for (let k = 0; k < j; k++) d -= L[j][k] * L[j][k];
    if (!(d > 1e-10 * m[j][j])) return NaN;
    L[j][j] = Math.sqrt(d);
    s += Math.log(d);
    for (let i = j + 1; i < p; i++) {
      let t = m[i][j];
      for (let k = 0; k < j; k++) t -= L[i][k] * L[j][k];
      L[i][j] = t / L[j][j];
    }
  }
  return s;
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

export const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
export const trace = (m: Matrix) => m.reduce((s, row, i) => s + row[i], 0);

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
