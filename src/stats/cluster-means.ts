/**
 * Intervals on match means, for cells where one match holds most decisions (docs/methods.md §8.3,
 * "One dominant match"): fewer than MIN_CLUSTERS effective matches (Σn)²/Σn² among at least
 * MIN_CLUSTERS matches. The pooled rate then is nearly one match's rate, whose spread the decisions
 * of that match cannot show; the equally weighted match means can: each match one observation
 * (size 1, its rate), the t interval on G − 1 degrees of freedom for a rate, Welch's interval
 * (Satterthwaite's degrees of freedom from the observed variances) for a difference of two cells
 * with matches of their own, and the t interval of the match-level differences for two columns of
 * the same matches. The interval is then widened to hold the pooled point the row reports. It
 * estimates the rate a match has on average, which is the pooled rate's target when a match's rate
 * does not depend on its length (the generators of the tests).
 */
import type { ClusterColumn } from './cluster-robust.js';
import { tQuantile } from './t-beta.js';

/**
 * Each match with a decision as one equally weighted observation: size 1, its rate as its sum
 * (a match without decisions keeps its place, size 0, so columns of the same matches stay aligned).
 */
export function matchMeans(col: ClusterColumn): ClusterColumn {
  const m = col.sizes.length, sizes = new Float64Array(m), sums = new Float64Array(m);
  for (let j = 0; j < m; j++) if (col.sizes[j] > 0) { sizes[j] = 1; sums[j] = col.sums[j] / col.sizes[j]; }
  return { sizes, sums };
}

/** Two columns of the same matches as match means over the matches with decisions in both (index j the same match in each). */
export function pairedMeans(a: ClusterColumn, b: ClusterColumn): [ClusterColumn, ClusterColumn] {
  const ma: number[] = [], mb: number[] = [];
  for (let j = 0; j < a.sizes.length; j++) {
    if (a.sizes[j] > 0 && b.sizes[j] > 0) { ma.push(a.sums[j] / a.sizes[j]); mb.push(b.sums[j] / b.sizes[j]); }
  }
  const ones = new Float64Array(ma.length).fill(1);
  return [{ sizes: ones, sums: Float64Array.from(ma) }, { sizes: ones, sums: Float64Array.from(mb) }];
}

/** Mean and variance of a match-means column's matches (those of size 1). */
function moments(col: ClusterColumn): { mean: number; variance: number; count: number } {
  let G = 0, m = 0;
  for (let j = 0; j < col.sizes.length; j++) if (col.sizes[j] > 0) { G++; m += col.sums[j]; }
  m /= G;
  let ss = 0;
  for (let j = 0; j < col.sizes.length; j++) if (col.sizes[j] > 0) ss += (col.sums[j] - m) ** 2;
  return { mean: m, variance: G > 1 ? ss / (G - 1) : NaN, count: G };
}

/**
 * Welch's interval of mean(b) − mean(a), two match-means columns of matches of their own:
 * s_a²/G_a + s_b²/G_b with Satterthwaite's degrees of freedom; undefined when either column has no
 * spread (every match alike), where the caller combines the two rates' intervals instead.
 */
export function welchDifference(a: ClusterColumn, b: ClusterColumn, level: number): { point: number; lo: number; hi: number; df: number } | undefined {
  const ma = moments(a), mb = moments(b);
  if (!(ma.variance > 0 && mb.variance > 0)) return undefined;
  const va = ma.variance / ma.count, vb = mb.variance / mb.count;
  const df = (va + vb) ** 2 / (va ** 2 / (ma.count - 1) + vb ** 2 / (mb.count - 1));
  const point = mb.mean - ma.mean, half = tQuantile((1 + level) / 2, df) * Math.sqrt(va + vb);
  return { point, lo: point - half, hi: point + half, df };
}

/** An interval as cluster-intervals.ts makes them (its ClusterInterval). */
interface Ends { readonly point: number; readonly lo: number; readonly hi: number; readonly kind: string }

/** The match-means interval `iv` widened to hold the reported point, within bounds; kind 'means' (none stays none). */
export function holdingPoint<T extends Ends>(iv: T, point: number, bounds: readonly [number, number]): T {
  if (iv.kind === 'none') return { ...iv, point };
  const lo = Math.max(bounds[0], Math.min(iv.lo, point)), hi = Math.min(bounds[1], Math.max(iv.hi, point));
  return { ...iv, point, lo, hi, kind: 'means' };
}
