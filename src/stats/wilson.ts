import { checkLevel, normalQuantile } from './normal.js';

/**
 * Wilson's score interval for a binomial rate x/n (Wilson 1927; Newcombe 1998, method 3): the
 * roots in p of |x/n − p| = z·√(p(1 − p)/n). Unlike the Wald and the bootstrap intervals it has
 * width at 0/n and n/n: x = 0 gives [0, z²/(n + z²)].
 */
export function wilsonInterval(x: number, n: number, level = 0.95): [number, number] {
  checkLevel(level, 'wilsonInterval');
  const z = normalQuantile(1 - (1 - level) / 2);
  const p = x / n, z2 = z * z;
  const centre = p + z2 / (2 * n);
  const half = z * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  const d = 1 + z2 / n;
  return [Math.max(0, (centre - half) / d), Math.min(1, (centre + half) / d)];
}

/** One rate of a linear combination: its count, its trials and its coefficient. */
export interface WeightedRate {
  readonly x: number;
  readonly n: number;
  readonly weight: number;
}

/**
 * MOVER interval for a linear combination θ = Σ c_j p_j of independent binomial rates (Zou and
 * Donner 2008; Zou, Huang and Zhang 2009), from each rate's Wilson interval [l_j, u_j]:
 *   L = θ̂ − √(Σ_{c>0} c²(p̂ − l)² + Σ_{c<0} c²(u − p̂)²),
 *   U = θ̂ + √(Σ_{c>0} c²(u − p̂)² + Σ_{c<0} c²(p̂ − l)²).
 * With two rates and weights −1, +1 it is Newcombe's (1998) method 10 for a difference.
 */
export function moverInterval(rates: readonly WeightedRate[], level = 0.95): [number, number] {
  let est = 0, down = 0, up = 0;
  for (const { x, n, weight: c } of rates) {
    const p = x / n;
    const [l, u] = wilsonInterval(x, n, level);
    est += c * p;
    const below = (p - l) ** 2, above = (u - p) ** 2;
    if (c > 0) { down += c * c * below; up += c * c * above; } else { down += c * c * above; up += c * c * below; }
  }
  return [est - Math.sqrt(down), est + Math.sqrt(up)];
}
