import type { BootstrapResult, Estimand } from '../../stats/bootstrap.js';
import { supTBand } from '../../stats/sup-t.js';
import { stat } from '../../core/names.js';
import { fixed, interval } from '../../core/format.js';
import type { SelectiveGroup, SelectiveLayout, VerdictThresholds } from './estimand.js';

/**
 * Verdicts by equivalence (docs/methods.md §12): surface sensitivity is a mean of absolute
 * differences, biased upward, and a percentile interval of it does not hold near 0. Its bounds
 * here come from a simultaneous 95 % sup-t band over the signed differences
 * d = p(world, canonical) − p(world, format) of the group (one per world and non-canonical
 * format): when every d lies in its band [l, u] — together with probability about 95 % —
 *   SS ≥ mean max(0, l, −u)  and  SS ≤ mean max(|l|, |u|).
 * "invariant" when the upper bound ≤ ε, "not invariant" when the lower bound > ε, "inconclusive"
 * otherwise (a TOST-style equivalence decision; Schuirmann 1987).
 */

/** Names: SSD[model | condition | world | format], p(world, canonical) − p(world, format). */
export function surfaceDifferenceEstimand(layout: SelectiveLayout): Estimand {
  const { worlds, formats } = layout.spec;
  const names = layout.groups.flatMap((g) => worlds.flatMap((w) => formats.slice(1).map((f) => stat('SSD', g.model, g.condition, w, f))));
  return {
    names,
    evaluate(rates, out) {
      let o = 0;
      for (const g of layout.groups) for (const row of g.cells) for (let f = 1; f < row.length; f++) out[o++] = rates[row[0]] - rates[row[f]];
    },
  };
}

export interface SurfaceBounds { readonly lower: number; readonly upper: number }

/** The simultaneous bounds of one group's surface sensitivity from the SSD replicates. */
export function surfaceBounds(boot: BootstrapResult, layout: SelectiveLayout, g: SelectiveGroup, level = 0.95): SurfaceBounds {
  const { worlds, formats } = layout.spec;
  const idx = worlds.flatMap((w) => formats.slice(1).map((f) => boot.indexOf(stat('SSD', g.model, g.condition, w, f))));
  const band = supTBand(boot.replicates, boot.reps, idx, boot.point, level);
  let lower = 0, upper = 0;
  idx.forEach((_, i) => {
    const l = band.lo[i], u = band.hi[i];
    lower += Math.max(0, l, -u);
    upper += Math.max(Math.abs(l), Math.abs(u));
  });
  return { lower: lower / idx.length, upper: upper / idx.length };
}

export type Invariance = 'invariant' | 'not invariant' | 'inconclusive';

export function invarianceVerdict(b: SurfaceBounds, t: VerdictThresholds): Invariance {
  if (b.upper <= t.maxSurface) return 'invariant';
  if (b.lower > t.maxSurface) return 'not invariant';
  return 'inconclusive';
}

/**
 * Directional sensitivity by the same rule: "moves the registered way" when its interval lies above
 * 0, "against" when below, "unmoved" when it lies within ±ε (equivalence), "inconclusive" otherwise.
 */
export function directionalVerdict(lo: number, hi: number, t: VerdictThresholds): string {
  if (lo > 0) return 'moves the registered way';
  if (hi < 0) return 'moves against';
  if (lo >= -t.maxSurface && hi <= t.maxSurface) return 'unmoved';
  return 'inconclusive';
}

/** The combined verdict: invariance (by equivalence) and world responsiveness (WR interval above its threshold). */
export function equivalenceVerdict(inv: Invariance, wrLo: number, t: VerdictThresholds): string {
  const responsive = wrLo > t.minWorldLo;
  if (inv === 'invariant') return responsive ? 'selectively robust' : 'not world-responsive';
  if (inv === 'not invariant') return responsive ? 'surface-sensitive' : 'surface-sensitive and not world-responsive';
  return responsive ? 'invariance inconclusive, world-responsive' : 'invariance inconclusive, not world-responsive';
}

/** A fraction in percentage points as the paper prints them (0.05 → "5.0"): the unit of every selective table and verdict sentence. */
export const points = (x: number): string => fixed(100 * x, 1);
/** An interval in percentage points: "[1.2, 3.4]". */
export const pointsInterval = (lo: number, hi: number): string => interval(100 * lo, 100 * hi, 1);

/**
 * The verdict rule above in words, with the thresholds it was applied with (the plane's caption):
 * invariance by the simultaneous upper bound of surface sensitivity against ε, responsiveness by
 * the world-responsiveness interval's lower end.
 */
export function verdictRuleText(t: VerdictThresholds): string {
  return (`selectively robust when invariant — the simultaneous 95 % upper bound of surface sensitivity (a sup-t band over the differences between the ` +
    `canonical and each other format) at most ε = ${points(t.maxSurface)} points, an equivalence decision; surface-sensitive when its lower bound is above ` +
    `ε, inconclusive otherwise — and world-responsive, the world-responsiveness interval above ${points(t.minWorldLo)} points`);
}
