/**
 * Bisection, the one root finder of the statistics' monotone searches (χ² quantiles and
 * noncentrality bounds, the Q-profile and Paule–Mandel τ², the three-level profile bounds, the
 * Imbens–Manski critical value): a bracket [lo, hi] with `below(lo)` true and `below(hi)` false is
 * halved until it is no wider than max(rel·|hi|, abs), or `maxIter` halvings are done.
 */

export interface BisectOptions {
  /** Relative width (of |hi|) at which the bracket is narrow enough (default 0). */
  readonly rel?: number;
  /** Absolute width at which the bracket is narrow enough (default 0). */
  readonly abs?: number;
  /** At most this many halvings (default 400). */
  readonly maxIter?: number;
}

export interface Bisection {
  /** The midpoint of the last bracket. */
  readonly x: number;
  readonly iterations: number;
  /** True when the bracket became narrow enough within maxIter halvings. */
  readonly converged: boolean;
}

/** The point where `below` turns from true (at lo) to false (at hi), with how the search went. */
export function bisection(below: (x: number) => boolean, lo: number, hi: number, o: BisectOptions = {}): Bisection {
  const narrow = () => hi - lo <= Math.max((o.rel ?? 0) * Math.abs(hi), o.abs ?? 0);
  const max = o.maxIter ?? 400;
  let i = 0;
  for (; i < max && !narrow(); i++) {
    const mid = (lo + hi) / 2;
    if (below(mid)) lo = mid; else hi = mid;
  }
  return { x: (lo + hi) / 2, iterations: i, converged: narrow() };
}

/** The point where `below` turns from true (at lo) to false (at hi). */
export const bisect = (below: (x: number) => boolean, lo: number, hi: number, o: BisectOptions = {}): number => bisection(below, lo, hi, o).x;

/**
 * A bracket for bisect above `lo` (where `below` holds): hi doubled from `start` while `below(hi)`
 * still holds (at most `maxDoublings` times), lo raised to each such hi.
 */
export function bracketAbove(below: (x: number) => boolean, lo: number, start: number, maxDoublings = 400): { lo: number; hi: number; doublings: number } {
  let hi = start;
  let i = 0;
  for (; i < maxDoublings && below(hi); i++) { lo = hi; hi *= 2; }
  return { lo, hi, doublings: i };
}
