/** Unweighted arithmetic mean; NaN for an empty input (there is no mean of nothing). */
export function mean(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return NaN;
  let s = 0;
  for (let i = 0; i < n; i++) s += values[i];
  return s / n;
}
