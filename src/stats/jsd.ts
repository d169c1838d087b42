/**
 * Binary entropy in nats, with the convention 0·ln 0 = 0.
 * @example binaryEntropy(0.5) // ln 2
 */
export function binaryEntropy(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`probability out of [0,1]: ${p}`);
  let h = 0;
  if (p > 0) h -= p * Math.log(p);
  if (p < 1) h -= (1 - p) * Math.log(1 - p);
  return h;
}

/**
 * Jensen–Shannon *divergence* (not distance) between Bernoulli(p) and Bernoulli(q), natural log
 * (docs/methods.md; Same Game, Different Story §3.2): JSD = H((p+q)/2) − (H(p)+H(q))/2, so 0 ≤ JSD ≤ ln 2.
 * scipy's `jensenshannon` returns the distance √JSD instead.
 * @example jsdBernoulli(0, 1) // Math.LN2
 */
export function jsdBernoulli(p: number, q: number): number {
  const d = binaryEntropy((p + q) / 2) - (binaryEntropy(p) + binaryEntropy(q)) / 2;
  // Rounding can leave a tiny negative value when p ≈ q; the divergence is never negative.
  return d < 0 ? 0 : d;
}

/**
 * Binary entropy without the range check, for bootstrap inner loops whose inputs are rates
 * already (NaN in, NaN out, where binaryEntropy throws).
 */
export function entropyUnchecked(p: number): number {
  return (p > 0 ? -p * Math.log(p) : 0) + (p < 1 ? -(1 - p) * Math.log(1 - p) : 0);
}

/**
 * Two-framing robustness R2 = 1 − JSD(p, q)/ln 2 (Same Game, Different Story §3.3). Called once per model–game per
 * bootstrap replicate, so it skips the range checks (rates of valid cells lie in [0, 1]); NaN in,
 * NaN out.
 */
export function robustness2(p: number, q: number): number {
  const d = entropyUnchecked((p + q) / 2) - (entropyUnchecked(p) + entropyUnchecked(q)) / 2;
  return 1 - (d < 0 ? 0 : d) / Math.LN2;
}
