/**
 * Heavy rows (weights far above the others') whose designs are linearly dependent: two cells of variance
 * 1e-30 at one moderator value that disagree, or three on the line of a two-coefficient regression. Then
 * M = V_H + X_H B X_H′ of the Woodbury split is singular up to V_H (1e-30), and X′WX is singular to
 * double precision. With X_B the r < h independent heavy rows (the heaviest first) and X_H = F X_B, the
 * heavy rows' sum of squares splits exactly (Pythagoras in the W_H metric):
 * (y_H − X_Hβ)′W_H(y_H − X_Hβ) = (y_H − Fŷ)′W_H(y_H − Fŷ) + (ŷ − X_Bβ)′S(ŷ − X_Bβ), S = F′W_H F,
 * ŷ = S⁻¹F′W_H y_H: the contrasts' part, free of β (Pc = W_H − W_H F S⁻¹F′W_H = N(N′V_H N)⁻¹N′, N′F = 0), and r pseudo-rows of design
 * X_B, effects ŷ and precision S, of full row rank, which heavySplit fits with the other rows (rotated to
 * S's eigenvectors, so their weights are diagonal). The residuals are rᵢ = (yᵢ − Fᵢŷ) + Fᵢ(ŷ − X_Bβ),
 * and P = Pc ⊕ 0 + J P_s J′ (heavy-split.ts Lift) gives tr P and tr PP.
 */
import { dot, invert, type Design, type Matrix, type WlsFit } from './matrix.js';
import { heavyRows, heavySplit, MAX_HEAVY } from './heavy-split.js';

/** A heavy row is dependent on earlier ones when less than this fraction of its length lies outside their span. */
const DEPENDENT = 1e-9;

/** The indices of rows (in order) each independent of those kept before it (Gram–Schmidt, orthogonalized twice). */
function independentRows(rows: readonly number[][]): number[] {
  const basis: number[][] = [];
  const kept: number[] = [];
  rows.forEach((x, i) => {
    let q = [...x];
    for (let pass = 0; pass < 2; pass++) for (const u of basis) { const c = dot(q, u); q = q.map((t, j) => t - c * u[j]); }
    const n = Math.sqrt(dot(q, q));
    if (n > DEPENDENT * Math.sqrt(dot(x, x))) { basis.push(q.map((t) => t / n)); kept.push(i); }
  });
  return kept;
}

/** The eigenvalues and eigenvectors (columns) of a small symmetric matrix, by cyclic Jacobi rotations. */
function symmetricEigen(S: Matrix): { values: number[]; vectors: Matrix } {
  const n = S.length;
  const a = S.map((row) => [...row]);
  const V = S.map((_, i) => S.map((__, j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0, diag = 0;
    for (let i = 0; i < n; i++) { diag += a[i][i] * a[i][i]; for (let j = i + 1; j < n; j++) off += a[i][j] * a[i][j]; }
    if (!(off > 1e-32 * diag)) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (a[p][q] === 0) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.hypot(theta, 1));
        const c = 1 / Math.hypot(t, 1), s = t * c;
        for (const m of [a, V]) for (const row of m) { const [x, y] = [row[p], row[q]]; row[p] = c * x - s * y; row[q] = s * x + c * y; }
        for (let k = 0; k < n; k++) { const [x, y] = [a[p][k], a[q][k]]; a[p][k] = c * x - s * y; a[q][k] = s * x + c * y; }
      }
    }
  }
  return { values: a.map((row, i) => row[i]), vectors: V };
}

/**
 * Pc = W_H − W_H F S⁻¹F′W_H as N(N′V_H N)⁻¹N′, N the contrasts (a column eᵢ − Σ_b Fᵢb e_b per dependent row i, so
 * N′F = 0): no difference of the heavy weights (two cells of variances 1e-30 and 1e-12 at one value give ≈ 1e12,
 * which W_H − … loses in 1e30). N′V_H N is scaled to a unit diagonal before it is inverted.
 */
function contrastProjection(F: Matrix, basis: readonly number[], wH: readonly number[]): Matrix | undefined {
  const isBasis = new Set(basis);
  const N = F.flatMap((f, i) => (isBasis.has(i) ? [] : [F.map((_, j) => (j === i ? 1 : 0) - (isBasis.has(j) ? f[basis.indexOf(j)] : 0))]));
  const NVN = N.map((a) => N.map((b) => a.reduce((s, x, i) => s + (x * b[i]) / wH[i], 0)));
  const d = NVN.map((row, a) => 1 / Math.sqrt(row[a]));
  const Kd = invert(NVN.map((row, a) => row.map((x, b) => x * d[a] * d[b])));
  if (!Kd) return undefined;
  const K = Kd.map((row, a) => row.map((x, b) => x * d[a] * d[b]));
  const NK = wH.map((_, i) => K.map((__, b) => N.reduce((s, n, a) => s + n[i] * K[a][b], 0)));
  return wH.map((_, i) => wH.map((__, j) => N.reduce((s, n, b) => s + NK[i][b] * n[j], 0)));
}

/** The fit with the heavy rows compressed to their independent part (see the file's comment); undefined when it cannot be formed. */
function compressedSplit(y: Float64Array, X: Design, w: Float64Array, H: readonly number[], basis: readonly number[], lambda: number): WlsFit | undefined {
  const xH = H.map((i) => X.map((col) => col[i]));
  const XB = basis.map((a) => xH[a]);
  const gram = invert(XB.map((u) => XB.map((t) => dot(u, t))));
  if (!gram) return undefined;
  const F = xH.map((x) => { const xb = XB.map((u) => dot(x, u)); return gram.map((row) => dot(row, xb)); });
  const wH = H.map((i) => w[i]);
  const Sinv = invert(basis.map((_, a) => basis.map((__, b) => F.reduce((s, f, i) => s + f[a] * wH[i] * f[b], 0))));
  if (!Sinv) return undefined;
  const fwy = basis.map((_, a) => F.reduce((s, f, i) => s + f[a] * wH[i] * y[H[i]], 0));
  const yB = Sinv.map((row) => dot(row, fwy));
  const rc = H.map((j, i) => y[j] - dot(F[i], yB));
  const WFS = F.map((f, i) => Sinv.map((_, b) => wH[i] * dot(f, Sinv.map((row) => row[b]))));
  const Pc = contrastProjection(F, basis, wH);
  if (!Pc) return undefined;
  const S = invert(Sinv)!;
  const { values, vectors: Qe } = symmetricEigen(S);
  const col = (m: Matrix, b: number) => m.map((row) => row[b]);
  const heavy = new Uint8Array(y.length);
  for (const i of H) heavy[i] = 1;
  const light = Array.from(y.keys()).filter((i) => !heavy[i]);
  const l = light.length;
  const yR = Float64Array.from([...light.map((i) => y[i]), ...values.map((_, b) => dot(col(Qe, b), yB))]);
  const wR = Float64Array.from([...light.map((i) => w[i]), ...values]);
  const XR = X.map((c, j) => Float64Array.from([...light.map((i) => c[i]), ...values.map((_, b) => dot(col(Qe, b), XB.map((u) => u[j])))]));
  const L = WFS.map((row) => Qe.map((_, b) => dot(row, col(Qe, b))));
  const fit = heavySplit(yR, XR, wR, values.map((_, b) => l + b), lambda, { L, Pc });
  if (!fit) return undefined;
  const res = new Float64Array(y.length);
  light.forEach((i, a) => { res[i] = fit.r[a]; });
  const rB = Qe.map((row) => row.reduce((s, q, b) => s + q * fit.r[l + b], 0));
  H.forEach((j, i) => { res[j] = rc[i] + dot(F[i], rB); });
  return { beta: fit.beta, A: fit.A, r: res, w, traces: fit.traces };
}

/**
 * The fit with the rows whose weights are far above the others' split off (heavySplit), their dependent
 * part compressed first (compressedSplit); undefined when there are none (or too many), or the split fails.
 * `extreme`: the largest weight is above GATE × the typical one (else only the split's traces are used).
 */
export function heavyFit(y: Float64Array, X: Design, w: Float64Array): { fit: WlsFit; extreme: boolean } | undefined {
  const { rows, median, extreme } = heavyRows(w);
  if (rows.length === 0 || rows.length > MAX_HEAVY) return undefined;
  const H = [...rows].sort((a, b) => w[b] - w[a]);
  const basis = independentRows(H.map((i) => X.map((col) => col[i])));
  const fit = basis.length === H.length ? heavySplit(y, X, w, rows, median) : compressedSplit(y, X, w, H, basis, median);
  return fit && { fit, extreme };
}
