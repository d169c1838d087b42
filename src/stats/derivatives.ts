/**
 * First and (diagonal) second derivatives ∂out_i/∂rate_k, ∂²out_i/∂rate_k² of f at `rates`, column-major
 * (k · statistics + i), by central differences; one-sided at 0 and 1, where the second is 0.
 */
export function derivatives(f: (rates: Float64Array, out: Float64Array) => void, rates: Float64Array, statistics: number, h = 1e-4): { first: Float64Array;
  second: Float64Array } {
  const k = rates.length;
  const first = new Float64Array(k * statistics), second = new Float64Array(k * statistics);
  const x = Float64Array.from(rates), up = new Float64Array(statistics), down = new Float64Array(statistics), mid = new Float64Array(statistics);
  f(x, mid);
  for (let j = 0; j < k; j++) {
    const a = Math.min(1, rates[j] + h), b = Math.max(0, rates[j] - h);
    x[j] = a; f(x, up);
    x[j] = b; f(x, down);
    x[j] = rates[j];
    const central = a - rates[j] === rates[j] - b;
    for (let i = 0; i < statistics; i++) {
      first[j * statistics + i] = (up[i] - down[i]) / (a - b);
      second[j * statistics + i] = central ? (up[i] - 2 * mid[i] + down[i]) / ((a - rates[j]) ** 2) : 0;
    }
  }
  return { first, second };
}
