/** Accuracy of the plain normal-equation fit and of wls (heavy split above GATE) against a QR fit, by ratio of precise to typical weights: npx tsx bench/meta-heavy-gate.ts */
import { crossW, invert, wls, weightedSum } from '../src/stats/meta/wls.js';
let seed = 12345; const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
function qr(y: Float64Array, X: Float64Array[], w: Float64Array) {
  const p = X.length; const Q: number[][] = []; const R = X.map(() => new Array<number>(p).fill(0));
  X.forEach((col, c) => { let q = Array.from(col, (t, i) => t * Math.sqrt(w[i]));
    for (let pass = 0; pass < 2; pass++) Q.forEach((u, j) => { const d = u.reduce((s, ui, i) => s + ui * q[i], 0); R[j][c] += d; q = q.map((t, i) => t - d * u[i]); });
    R[c][c] = Math.hypot(...q); Q.push(q.map((t) => t / R[c][c])); });
  const Rinv = R.map(() => new Array<number>(p).fill(0));
  for (let c = 0; c < p; c++) for (let r = c; r >= 0; r--) { let s = r === c ? 1 : 0; for (let k = r + 1; k <= c; k++) s -= R[r][k] * Rinv[k][c]; Rinv[r][c] = s / R[r][r]; }
  const qy = Q.map((u) => u.reduce((s, ui, i) => s + ui * Math.sqrt(w[i]) * y[i], 0));
  const beta = Rinv.map((row) => row.reduce((s, a, j) => s + a * qy[j], 0));
  const A = Rinv.map((ra) => Rinv.map((rb) => ra.reduce((s, a, k) => s + a * rb[k], 0)));
  const r = Array.from(y, (yi, i) => yi - X.reduce((s, c, j) => s + c[i] * beta[j], 0));
  const QE = r.reduce((s, ri, i) => s + w[i] * ri * ri, 0);
  return { beta, A, QE };
}
function plain(y: Float64Array, X: Float64Array[], w: Float64Array) {
  const A = invert(crossW(X, w, 1)); if (!A) return { beta: [NaN], A: [[NaN]], QE: Infinity }; const xwy = X.map((col) => { let s = 0; for (let i = 0; i < y.length; i++) s += w[i] * col[i] * y[i]; return s; });
  const beta = A.map((row) => row.reduce((s, v, j) => s + v * xwy[j], 0));
  const r = Array.from(y, (yi, i) => yi - X.reduce((s, c, j) => s + c[i] * beta[j], 0));
  return { beta, A, QE: r.reduce((s, ri, i) => s + w[i] * ri * ri, 0) };
}
const err = (f: { beta: number[]; A: number[][]; QE: number }, g: { beta: number[]; A: number[][]; QE: number }) => {
  let e = Math.abs(f.QE - g.QE) / Math.max(1, g.QE);
  f.beta.forEach((b, j) => { e = Math.max(e, Math.abs(b - g.beta[j]) / Math.max(1e-3, Math.sqrt(g.A[j][j]))); });
  f.A.forEach((row, a) => row.forEach((x, b) => { e = Math.max(e, Math.abs(x - g.A[a][b]) / Math.sqrt(g.A[a][a] * g.A[b][b])); }));
  return e;
};
for (const design of ['egger', 'mod', 'cat']) for (let e = 3; e <= 14; e++) {
  let mp = 0, mh = 0, nh = 0;
  for (let t = 0; t < 300; t++) {
    const k = 8 + Math.floor(rnd() * 25); const nprec = 1 + Math.floor(rnd() * 5);
    const v = Float64Array.from({ length: k }, (_, i) => i < nprec ? (0.01 + 0.19 * rnd()) * 10 ** -(e + rnd()) : 0.01 + 0.19 * rnd());
    const y = Float64Array.from({ length: k }, () => 0.2 + 0.3 * (rnd() - 0.5));
    const x = design === 'egger' ? Float64Array.from(v, Math.sqrt) : Float64Array.from({ length: k }, () => design === 'cat' ? Math.floor(4 * rnd()) : rnd());
    const X = [new Float64Array(k).fill(1), x];
    const ref = qr(y, X, Float64Array.from(v, (vi) => 1 / vi));
    const w = Float64Array.from(v, (vi) => 1 / vi);
    if (!Number.isFinite(ref.QE)) continue; mp = Math.max(mp, err(plain(y, X, w), ref));
    const f = wls(y, X, w); if (f?.traces) nh++;
    if (f) mh = Math.max(mh, err({ beta: f.beta, A: f.A, QE: weightedSum(f, 1, 2) }, ref)); else mh = Infinity;
  }
  console.log(design, 'ratio 1e' + e, 'plain max err', mp.toExponential(2), 'wls max err', mh.toExponential(2), 'tables with rows over 1e4 x typical (split traces)', nh);
}
