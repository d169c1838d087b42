/**
 * Maximizing a function of one non-negative variable: Brent's method (golden-section steps with
 * parabolic interpolation; Brent 1973, "Algorithms for Minimization without Derivatives", ch. 5)
 * on [0, hi] to an absolute tolerance of about 1e-12·hi, the interval widened tenfold while the
 * maximum sits at its upper end; 0 at once when f falls from 0. Used for the variance components
 * of the three-level model, whose restricted likelihood is unimodal in each.
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

/** The x ≥ 0 at which f is largest, searching [0, hi] (0 itself a candidate) and widening hi while the maximum is at its end. */
export function maximizeNonNegative(f: (x: number) => number, hi: number): number {
  let top = hi > 0 ? hi : 1;
  // Falling from 0 (a unimodal f): the maximum is at the boundary.
  if (f(0) >= f(1e-9 * top)) return 0;
  for (let widen = 0; widen < 12; widen++) {
    const x = brentMin((z) => -f(z), 0, top, 1e-12 * top);
    const best = f(0) >= f(x) ? 0 : x;
    if (best < top * (1 - 1e-6) || widen === 11) return best;
    top *= 10;
  }
  return top;
}
