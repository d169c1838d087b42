/**
 * Logit quantal response pieces of the payoff-sensitivity diagnostic (Same Game, Different Story §3.4; McKelvey &
 * Palfrey 1995): the row player's expected payoff gap under a registered belief q that the other
 * player cooperates, after normalizing the row player's payoffs to range 1.
 */

/** Row player's payoffs in the order u(C,C), u(C,D), u(D,C), u(D,D). */
export type RowPayoffs = readonly [number, number, number, number];

/**
 * Δu(q) = ū(C; q) − ū(D; q) on payoffs rescaled to range 1 (min 0, max 1).
 * NaN when the four payoffs are equal (no range to normalize).
 * @example payoffGap([5, 2, 10, 3]) // Prisoner's Dilemma: (3.5 − 6.5)/8 = −0.375
 */
export function payoffGap(u: RowPayoffs, q = 0.5): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`belief q out of [0,1]: ${q}`);
  const lo = Math.min(...u);
  const range = Math.max(...u) - lo;
  if (range === 0) return NaN;
  const [cc, cd, dc, dd] = u.map((v) => (v - lo) / range);
  return q * cc + (1 - q) * cd - (q * dc + (1 - q) * dd);
}

export const LAMBDA_CAP = 20;

/**
 * λ̂ = clamp(logit(p̃)/Δu, 0, 20) with p̃ = (x + 0.5)/(T + 1) (Same Game, Different Story §3.4). The cap keeps
 * quasi-complete separation from dominating. NaN when Δu is 0 or NaN: a game without an expected
 * payoff gap at q carries no information about λ.
 */
export function lambdaHat(x: number, T: number, du: number): number {
  if (!(du !== 0 && Number.isFinite(du)) || !(T >= 0)) return NaN;
  const p = (x + 0.5) / (T + 1);
  const l = Math.log(p / (1 - p)) / du;
  return Math.min(LAMBDA_CAP, Math.max(0, l));
}

/** P(C | λ, Δu) = e^{λΔu} / (1 + e^{λΔu}). */
export function logitResponse(lambda: number, du: number): number {
  return 1 / (1 + Math.exp(-lambda * du));
}

/** Population variance (divide by the count), as V_λ of a framing pair uses; NaN when empty. */
export function populationVariance(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const m = values.reduce((s, v) => s + v, 0) / values.length;
  return values.reduce((s, v) => s + (v - m) ** 2, 0) / values.length;
}
