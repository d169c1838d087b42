/**
 * Quantile of an ascending-sorted sample with linear interpolation between order statistics:
 * h = (N−1)·q, the R-7 definition used by numpy's default and d3.quantile.
 * @example quantileSorted([1, 2, 3, 4], 0.5) // 2.5
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile level out of [0,1]: ${q}`);
  if (n === 0) return NaN;
  if (n === 1) return sorted[0];
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  if (lo >= n - 1) return sorted[n - 1];
  const a = sorted[lo];
  const b = sorted[lo + 1];
  return a + (h - lo) * (b - a);
}
