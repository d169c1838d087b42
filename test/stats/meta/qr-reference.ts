/**
 * The weighted least-squares fit by a QR of W^½X (Gram–Schmidt, orthogonalized twice): β = R⁻¹Q′W^½y, (X′WX)⁻¹ = R⁻¹R⁻ᵀ
 * and P = W^½(I − QQ′)W^½ in full (small k), the reference for the fits with heavy rows; its error grows as √(max w / min w),
 * that of the normal equations as max w / min w.
 */
export function qrFit(y: ArrayLike<number>, X: readonly Float64Array[], w: Float64Array) {
  const p = X.length;
  const Q: number[][] = [];
  const R = X.map(() => new Array<number>(p).fill(0));
  X.forEach((col, c) => {
    let q = Array.from(col, (t, i) => t * Math.sqrt(w[i]));
    for (let pass = 0; pass < 2; pass++) {
      Q.forEach((u, j) => { const d = u.reduce((s, ui, i) => s + ui * q[i], 0); R[j][c] += d; q = q.map((t, i) => t - d * u[i]); });
    }
    R[c][c] = Math.hypot(...q);
    Q.push(q.map((t) => t / R[c][c]));
  });
  const Rinv = R.map(() => new Array<number>(p).fill(0));
  for (let c = 0; c < p; c++) {
    for (let r = c; r >= 0; r--) {
      let s = r === c ? 1 : 0;
      for (let k = r + 1; k <= c; k++) s -= R[r][k] * Rinv[k][c];
      Rinv[r][c] = s / R[r][r];
    }
  }
  const qy = Q.map((u) => u.reduce((s, ui, i) => s + ui * Math.sqrt(w[i]) * y[i], 0));
  const beta = Rinv.map((row) => row.reduce((s, a, j) => s + a * qy[j], 0));
  const A = Rinv.map((ra) => Rinv.map((rb) => ra.reduce((s, a, k) => s + a * rb[k], 0)));
  const k = w.length;
  const P = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (__, j) =>
    Math.sqrt(w[i] * w[j]) * ((i === j ? 1 : 0) - Q.reduce((s, u) => s + u[i] * u[j], 0))));
  const r = Array.from({ length: k }, (_, i) => y[i] - X.reduce((s, col, j) => s + col[i] * beta[j], 0));
  return {
    beta, A, QE: r.reduce((s, ri, i) => s + w[i] * ri * ri, 0),
    trP: P.reduce((s, row, i) => s + row[i], 0), trPP: P.flat().reduce((s, x) => s + x * x, 0),
  };
}
