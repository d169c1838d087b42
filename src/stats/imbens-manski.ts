/**
 * The Imbens–Manski (2004) confidence interval for a partially identified parameter
 * (Econometrica 72:6, §4): with estimated bounds [L̂, Û] of standard errors σ_L, σ_U, the interval
 * [L̂ − c·σ_L, Û + c·σ_U] where c solves Φ(c + (Û − L̂)/max(σ_L, σ_U)) − Φ(−c) = level. It covers
 * the parameter (any point of the identified set) with probability ≥ level, and is between the
 * one-sided (c = z_level, wide sets) and the two-sided (c = z_{(1+level)/2}, a point) normal interval.
 */
import { bisect } from './bisect.js';
import { normalCdf, normalQuantile } from './normal.js';

/** The critical value c of Imbens and Manski for a set of estimated width `width`, the larger standard error `sigma`. */
export function imbensManskiCritical(width: number, sigma: number, level = 0.95): number {
  const lo0 = normalQuantile(level), hi0 = normalQuantile((1 + level) / 2);
  if (!(sigma > 0)) return width > 0 ? lo0 : hi0;
  const f = (c: number) => normalCdf(c + Math.max(0, width) / sigma) - normalCdf(-c) - level;
  return bisect((c) => f(c) < 0, lo0, hi0, { abs: 1e-12, maxIter: 100 });
}

/** The interval for a parameter in [lo, hi] (estimates of standard errors sdLo, sdHi), clipped to `bounds`. */
export function imbensManskiInterval(lo: number, hi: number, sdLo: number, sdHi: number, level = 0.95,
  bounds: readonly [number, number] = [0, 1]): [number, number] {
  const c = imbensManskiCritical(hi - lo, Math.max(sdLo, sdHi), level);
  return [Math.max(bounds[0], lo - c * sdLo), Math.min(bounds[1], hi + c * sdHi)];
}
