/**
 * Maximizing a function of one non-negative variable: Brent's method (golden-section steps with
 * parabolic interpolation; Brent 1973, "Algorithms for Minimization without Derivatives", ch. 5)
 * between the neighbours of the best point of a geometric scan of [0, hi], to an absolute tolerance
 * of about 1e-12·hi. Used for the variance components of the three-level model.
 */
const C = (3 - Math.sqrt(5)) / 2;

/** The x in [a, b] minimizing f (Brent's localmin). */
function brentMin(f: (x: number) => number, a: number, b: number, tol: number): number {
  let v = a + C * (b - a);
  let w = v;
  let x = v;
  let fx = f(x);
  let fv = fx;
  let fw = fx;
  let d = 0;
  let e = 0;
  for (let it = 0; it < 500; it++) {
    const m = (a + b) / 2;
    const t = 1e-10 * Math.abs(x) + tol;
    if (Math.abs(x - m) <= 2 * t - (b - a) / 2) break;
    let useGolden = true;
    if (Math.abs(e) > t) {
      const r = (x - w) * (fx - fv);
      let q = (x - v) * (fx - fw);
      let p = (x - v) * q - (x - w) * r;
      q = 2 * (q - r);
      if (q > 0) p = -p; else q = -q;
      if (Math.abs(p) < Math.abs(0.5 * q * e) && p > q * (a - x) && p < q * (b - x)) {
        e = d;
        d = p / q;
        const u = x + d;
        if (u - a < 2 * t || b - u < 2 * t) d = x < m ? t : -t;
        useGolden = false;
      }
    }
    if (useGolden) { e = (x < m ? b : a) - x; d = C * e; }
    const u = x + (Math.abs(d) >= t ? d : d > 0 ? t : -t);
    const fu = f(u);
    if (fu <= fx) {
      if (u < x) b = x; else a = x;
      [v, fv, w, fw, x, fx] = [w, fw, x, fx, u, fu];
    } else {
      if (u < x) a = u; else b = u;
      if (fu <= fw || w === x) { [v, fv, w, fw] = [w, fw, u, fu]; }
      else if (fu <= fv || v === x || v === w) { v = u; fv = fu; }
    }
  }
  return x;
}

/**
 * The x ≥ 0 at which f is largest: a scan of 0 and hi·4^−j (j = 0…20, down to about 1e-12·hi)
 * finds the best grid point, then Brent's method searches between its neighbours; hi is widened
 * tenfold while the best point is hi itself. The scan keeps a slight rise near 0, or a second
 * mode, from being mistaken for a maximum at the boundary.
 */
export function maximizeNonNegative(f: (x: number) => number, hi: number): number {
  let top = hi > 0 ? hi : 1;
  for (let widen = 0; widen < 12; widen++) {
    const grid = [...Array.from({ length: 21 }, (_, j) => top * 4 ** -j), 0];
    const values = grid.map(f);
    let b = 0;
    for (let i = 1; i < grid.length; i++) if (values[i] > values[b]) b = i;
    if (b === 0 && widen < 11) { top *= 10; continue; }
    const lo = b + 1 < grid.length ? grid[b + 1] : 0;
    const up = b > 0 ? grid[b - 1] : grid[0];
    const x = brentMin((z) => -f(z), lo, up, 1e-12 * top);
    return f(x) > values[b] ? x : grid[b];
  }
  return top;
}
