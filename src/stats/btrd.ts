import type { RandomSource } from './rng.js';

/**
 * BTRD: exact Binomial(n, p) sampling by transformed rejection with decomposition (Hörmann,
 * "The generation of binomial random variates", J. Statist. Comput. Simul. 46, 1993), in O(1)
 * memory and O(1) expected time per draw for any n. Used above the table sampler's range
 * (binomial.ts). Steps follow the paper's numbering; for n·min(p, 1−p) < 10, where BTRD's hat
 * does not hold, an inversion from 0 with the pmf recursion is used (expected steps < 11).
 * Symmetry: for p > 1/2 it draws n − Binomial(n, 1 − p).
 */

/** fc(k) = ln k! − [(k + ½) ln(k + 1) − (k + 1) + ½ ln 2π]: the Stirling correction, exact below 10. */
const FC = [0.08106146679532726, 0.04134069595540929, 0.02767792568499834, 0.02079067210376509, 0.01664469118982119,
  0.01387612882307075, 0.01189670994589177, 0.01041126526197209, 0.009255462182712733, 0.008330563433362871];

export function stirlingCorrection(k: number): number {
  if (k < 10) return FC[k];
  const r = 1 / (k + 1), r2 = r * r;
  return (1 / 12 - (1 / 360 - r2 / 1260) * r2) * r;
}

export class BtrdSampler {
  private readonly flip: boolean;
  private readonly q: number;
  private readonly m: number;
  private readonly r: number;
  private readonly nr: number;
  private readonly npq: number;
  private readonly b: number;
  private readonly a: number;
  private readonly c: number;
  private readonly alpha: number;
  private readonly vr: number;
  private readonly urvr: number;
  private readonly h: number;
  /** Inversion from 0 when the mean is small: P(0) = (1 − q)^n. */
  private readonly p0: number;

  constructor(readonly n: number, readonly p: number) {
    if (!Number.isInteger(n) || n < 0 || n > Number.MAX_SAFE_INTEGER) throw new RangeError(`n must be a non-negative safe integer: ${n}`);
    if (!(p >= 0 && p <= 1)) throw new RangeError(`p out of [0,1]: ${p}`);
    this.flip = p > 0.5;
    const q = this.flip ? 1 - p : p;
    this.q = q;
    this.m = Math.floor((n + 1) * q);
    this.r = q / (1 - q);
    this.nr = (n + 1) * this.r;
    this.npq = n * q * (1 - q);
    const spq = Math.sqrt(this.npq);
    this.b = 1.15 + 2.53 * spq;
    this.a = -0.0873 + 0.0248 * this.b + 0.01 * q;
    this.c = n * q + 0.5;
    this.alpha = (2.83 + 5.1 / this.b) * spq;
    this.vr = 0.92 - 4.2 / this.b;
    this.urvr = 0.86 * this.vr;
    const nm = n - this.m + 1;
    this.h = (this.m + 0.5) * Math.log((this.m + 1) / (this.r * nm)) + stirlingCorrection(this.m) + stirlingCorrection(n - this.m);
    this.p0 = Math.exp(n * Math.log1p(-q));
  }

  draw(rng: RandomSource): number {
    if (this.q === 0) return this.flip ? this.n : 0;
    const k = this.n * this.q < 10 ? this.invert(rng) : this.btrd(rng);
    return this.flip ? this.n - k : k;
  }

  /** Smallest k with CDF(k) > u, the pmf built up by P(k+1) = P(k)·(n−k)/(k+1)·q/(1−q). */
  private invert(rng: RandomSource): number {
    for (;;) {
      let u = rng.next();
      let f = this.p0;
      for (let k = 0; k <= this.n; k++) {
        if (u < f) return k;
        u -= f;
        f *= ((this.n - k) / (k + 1)) * this.r;
        if (f === 0) break; // rounding left u beyond the summed mass: draw again
      }
    }
  }

  private btrd(rng: RandomSource): number {
    const { n, m, r, nr, npq, a, b, c, alpha, vr, urvr } = this;
    for (;;) {
      // 1. The triangle in the middle: accepted at once.
      let v = rng.next();
      let u: number;
      if (v <= urvr) {
        u = v / vr - 0.43;
        return Math.floor(((2 * a) / (0.5 - Math.abs(u)) + b) * u + c);
      }
      // 2. The rest of the hat.
      if (v >= vr) {
        u = rng.next() - 0.5;
      } else {
        u = v / vr - 0.93;
        u = Math.sign(u) * 0.5 - u;
        v = rng.next() * vr;
      }
      // 3.0
      const us = 0.5 - Math.abs(u);
      const k = Math.floor(((2 * a) / us + b) * u + c);
      if (k < 0 || k > n) continue;
      v = (v * alpha) / (a / (us * us) + b);
      const km = Math.abs(k - m);
      if (km <= 15) {
        // 3.1 Recursive evaluation of f(k)/f(m).
        let f = 1;
        if (m < k) for (let i = m + 1; i <= k; i++) f *= nr / i - r;
        else if (m > k) for (let i = k + 1; i <= m; i++) v *= nr / i - r;
        if (v <= f) return k;
        continue;
      }
      // 3.2 Squeeze on the log scale.
      v = Math.log(v);
      const rho = (km / npq) * (((km / 3 + 0.625) * km + 1 / 6) / npq + 0.5);
      const t = (-km * km) / (2 * npq);
      if (v < t - rho) return k;
      if (v > t + rho) continue;
      // 3.3–3.4 The final acceptance test with Stirling's formula.
      const nm = n - m + 1, nk = n - k + 1;
      if (v <= this.h + (n + 1) * Math.log(nm / nk) + (k + 0.5) * Math.log((nk * r) / (k + 1)) - stirlingCorrection(k) - stirlingCorrection(n - k)) return k;
    }
  }
}
