/**
 * Minimizers of a smooth function of a few parameters: Nelder–Mead (Nelder & Mead 1965; the
 * standard reflection 1, expansion 2, contraction ½, shrink ½) to find the basin, then Newton
 * steps with central-difference derivatives to reach the minimum to near machine precision.
 */
type Fn = (x: readonly number[]) => number;

/** Nelder–Mead from x0 with an initial simplex of side `step`. */
export function nelderMead(f: Fn, x0: readonly number[], step: number, maxIter = 5000): number[] {
  const n = x0.length;
  let pts: number[][] = [[...x0], ...x0.map((_, i) => x0.map((v, j) => (i === j ? v + step : v)))];
  let vals = pts.map(f);
  for (let it = 0; it < maxIter; it++) {
    const order = vals.map((_, i) => i).sort((a, b) => vals[a] - vals[b]);
    pts = order.map((i) => pts[i]);
    vals = order.map((i) => vals[i]);
    const size = Math.max(...pts.slice(1).map((p) => Math.max(...p.map((v, j) => Math.abs(v - pts[0][j])))));
    if (vals[n] - vals[0] <= 1e-15 * (Math.abs(vals[0]) + 1e-300) && size < 1e-9) break;
    const centroid = x0.map((_, j) => pts.slice(0, n).reduce((s, p) => s + p[j], 0) / n);
    const along = (t: number) => centroid.map((c, j) => c + t * (pts[n][j] - c));
    const r = along(-1);
    const fr = f(r);
    if (fr < vals[0]) {
      const e = along(-2);
      const fe = f(e);
      [pts[n], vals[n]] = fe < fr ? [e, fe] : [r, fr];
    } else if (fr < vals[n - 1]) {
      [pts[n], vals[n]] = [r, fr];
    } else {
      const c = fr < vals[n] ? along(-0.5) : along(0.5);
      const fc = f(c);
      if (fc < Math.min(fr, vals[n])) [pts[n], vals[n]] = [c, fc];
      else {
        pts = pts.map((p) => p.map((v, j) => pts[0][j] + 0.5 * (v - pts[0][j])));
        vals = pts.map(f);
      }
    }
  }
  return pts[vals.indexOf(Math.min(...vals))];
}

/** Gradient and Hessian by central differences with step h per coordinate. */
function derivatives(f: Fn, x: readonly number[], h: readonly number[]): { g: number[]; H: number[][] } {
  const n = x.length;
  const at = (d: Record<number, number>) => f(x.map((v, i) => v + (d[i] ?? 0)));
  const f0 = f(x);
  const g = x.map((_, i) => (at({ [i]: h[i] }) - at({ [i]: -h[i] })) / (2 * h[i]));
  const H = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    H[i][i] = (at({ [i]: h[i] }) - 2 * f0 + at({ [i]: -h[i] })) / (h[i] * h[i]);
    for (let j = i + 1; j < n; j++) {
      const v = (at({ [i]: h[i], [j]: h[j] }) - at({ [i]: h[i], [j]: -h[j] }) - at({ [i]: -h[i], [j]: h[j] }) + at({ [i]: -h[i], [j]: -h[j] })) / (4 * h[i] * h[j]);
      H[i][j] = v;
      H[j][i] = v;
    }
  }
  return { g, H };
}

/** Solve the 2 × 2 (or 1 × 1) system H d = −g; undefined when H is not positive definite. */
function newtonStep(g: readonly number[], H: readonly number[][]): number[] | undefined {
  if (g.length === 1) return H[0][0] > 0 ? [-g[0] / H[0][0]] : undefined;
  const det = H[0][0] * H[1][1] - H[0][1] * H[1][0];
  if (!(H[0][0] > 0 && det > 0)) return undefined;
  return [-(H[1][1] * g[0] - H[0][1] * g[1]) / det, -(H[0][0] * g[1] - H[1][0] * g[0]) / det];
}

/** Newton steps (one or two parameters) from x while they lower f; stops when a step is below 1e-12. */
export function newtonPolish(f: Fn, x0: readonly number[], maxIter = 50): number[] {
  let x = [...x0];
  let fx = f(x);
  for (let it = 0; it < maxIter; it++) {
    const h = x.map((v) => 1e-5 * Math.max(Math.abs(v), 1e-3));
    const { g, H } = derivatives(f, x, h);
    const d = newtonStep(g, H);
    if (!d) break;
    let t = 1;
    let moved = false;
    for (let halving = 0; halving < 30; halving++, t /= 2) {
      const cand = x.map((v, i) => v + t * d[i]);
      const fc = f(cand);
      if (fc <= fx) { x = cand; fx = fc; moved = true; break; }
    }
    if (!moved || Math.max(...d.map((v, i) => Math.abs(t * v) / Math.max(1, Math.abs(x[i])))) < 1e-12) break;
  }
  return x;
}
