/**
 * Intervals for rates of clustered decisions and their differences (docs/methods.md, "Clustered
 * data"), from the CR2 variance and Satterthwaite degrees of freedom of `cluster-robust.ts`:
 *
 * - a rate: r ± t_{ν, 1−α/2} · √V (with equal match lengths: the t interval on G − 1 df of the
 *   match means); where that interval leaves [0, 1] (near 0 or 1), the Wilson score interval on the
 *   effective sample size n* = min(N, r(1 − r)/V) of Korn & Graubard (1998) with the t_ν quantile
 *   in place of the normal one; where V = 0 (every match alike, e.g. every decision 1), which says
 *   nothing of the within-match correlation, a Clopper–Pearson interval (as
 *   survey::svyciprop(method = "beta")) on n* = √(N·G), midway on the log scale between
 *   independent decisions (n* = N) and perfectly correlated matches (n* = G);
 * - a difference of two rates: r₂ − r₁ ± t_ν · √V with ν Satterthwaite's; where either rate has
 *   every match alike (its V = 0, so it adds nothing to √V), the MOVER combination of the two rates' intervals
 *   (Newcombe 1998; Zou & Donner 2008);
 * - fewer than MIN_CLUSTERS matches: no interval (NaN ends).
 */
import { cr2Contrast, type ClusterColumn, type ContrastTerm } from './cluster-robust.js';
import { betaQuantile, tQuantile } from './t-beta.js';

/** Matches a statistic must rest on for an interval: with two, G − 1 = 1 degree of freedom and no usable spread. */
export const MIN_CLUSTERS = 3;
/** Below this many matches an interval is flagged as resting on few degrees of freedom. */
export const FEW_CLUSTERS = 10;

/** How an interval was made: t (CR2, Satterthwaite df), wilson or beta (on the effective n), mover, or none. */
export type ClusterIntervalKind = 't' | 'wilson' | 'beta' | 'mover' | 'none';

export interface ClusterInterval {
  readonly point: number;
  readonly lo: number;
  readonly hi: number;
  /** Degrees of freedom of the interval (Satterthwaite); NaN when none. */
  readonly df: number;
  /** Matches the statistic rests on. */
  readonly clusters: number;
  readonly kind: ClusterIntervalKind;
}

const none = (point: number, clusters: number): ClusterInterval => ({ point, lo: NaN, hi: NaN, df: NaN, clusters, kind: 'none' });

/** Clusters with at least one decision. */
export function clusterCount(col: ClusterColumn): number {
  let g = 0;
  for (let j = 0; j < col.sizes.length; j++) if (col.sizes[j] > 0) g++;
  return g;
}

function decisions(col: ClusterColumn): number {
  let n = 0;
  for (let j = 0; j < col.sizes.length; j++) n += col.sizes[j];
  return n;
}

/** Clopper–Pearson ends for x* = n*·r of n* (real-valued), at level. */
export function clopperPearson(r: number, nEff: number, level: number): [number, number] {
  const a = (1 - level) / 2;
  const x = nEff * r;
  const lo = r <= 0 ? 0 : betaQuantile(a, x, nEff - x + 1);
  const hi = r >= 1 ? 1 : betaQuantile(1 - a, x + 1, nEff - x);
  return [lo, hi];
}

/** The Wilson score interval of r on n decisions with quantile z (clipped to [0, 1]). */
export function wilsonInterval(r: number, n: number, z: number): [number, number] {
  const z2 = z * z;
  const centre = (r + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((r * (1 - r)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** The interval of one column's rate (module header). */
export function clusterRateInterval(col: ClusterColumn, level = 0.95): ClusterInterval {
  const G = clusterCount(col);
  const c = cr2Contrast([{ group: 0, column: col, coef: 1 }]);
  const r = c.estimate;
  if (G < MIN_CLUSTERS || !Number.isFinite(c.variance)) return none(r, G);
  // With every match alike the Satterthwaite df is still defined (it does not depend on the outcomes).
  const df = Number.isFinite(c.df) ? c.df : G - 1;
  const t = tQuantile((1 + level) / 2, df);
  const half = t * Math.sqrt(c.variance);
  if (c.variance > 0 && r - half >= 0 && r + half <= 1) return { point: r, lo: r - half, hi: r + half, df, clusters: G, kind: 't' };
  const N = decisions(col);
  if (c.variance > 0) {
    const [lo, hi] = wilsonInterval(r, Math.min(N, (r * (1 - r)) / c.variance), t);
    return { point: r, lo, hi, df, clusters: G, kind: 'wilson' };
  }
  const [lo, hi] = clopperPearson(r, Math.sqrt(N * G), level);
  return { point: r, lo, hi, df, clusters: G, kind: 'beta' };
}

/**
 * r(b) − r(a) with its interval. `paired`: the two columns are disjoint columns of the same matches
 * (the last round against the rounds before it); otherwise each has matches of its own.
 */
export function clusterDifferenceInterval(a: ClusterColumn, b: ClusterColumn, paired: boolean, level = 0.95): ClusterInterval {
  const ia = clusterRateInterval(a, level), ib = clusterRateInterval(b, level);
  const terms: ContrastTerm[] = [{ group: 0, column: a, coef: -1 }, { group: paired ? 0 : 1, column: b, coef: 1 }];
  const c = cr2Contrast(terms);
  const d = ib.point - ia.point;
  const clusters = Math.min(ia.clusters, ib.clusters);
  if (ia.kind === 'none' || ib.kind === 'none' || !Number.isFinite(c.variance)) return none(d, clusters);
  const df = Number.isFinite(c.df) ? c.df : clusters - 1;
  if (ia.kind !== 'beta' && ib.kind !== 'beta' && c.variance > 0) {
    const half = tQuantile((1 + level) / 2, df) * Math.sqrt(c.variance);
    return { point: d, lo: Math.max(-1, d - half), hi: Math.min(1, d + half), df, clusters, kind: 't' };
  }
  const lo = d - Math.hypot(ib.point - ib.lo, ia.hi - ia.point);
  const hi = d + Math.hypot(ib.hi - ib.point, ia.point - ia.lo);
  return { point: d, lo: Math.max(-1, lo), hi: Math.min(1, hi), df, clusters, kind: 'mover' };
}

/**
 * A smooth statistic f of independent cells' rates by the delta method: its gradient (central
 * differences) as the coefficients of a linear combination, then the CR2 variance and Satterthwaite
 * df of that combination; the interval is clipped to `bounds`. Exact for a linear f (a mean of shifts).
 */
export function clusterDeltaInterval(columns: readonly ClusterColumn[], rates: Float64Array, f: (rates: Float64Array) => number,
  bounds: readonly [number, number], level = 0.95): ClusterInterval {
  const point = f(rates);
  const x = Float64Array.from(rates);
  const terms: ContrastTerm[] = [];
  let clusters = Infinity;
  columns.forEach((col, k) => {
    const h = 1e-6;
    x[k] = rates[k] + h; const up = f(x);
    x[k] = rates[k] - h; const down = f(x);
    x[k] = rates[k];
    const g = (up - down) / (2 * h);
    if (g !== 0 && Number.isFinite(g)) { terms.push({ group: k, column: col, coef: g }); clusters = Math.min(clusters, clusterCount(col)); }
  });
  if (terms.length === 0) return none(point, 0);
  const c = cr2Contrast(terms);
  if (clusters < MIN_CLUSTERS || !Number.isFinite(c.variance)) return none(point, clusters);
  const df = Number.isFinite(c.df) ? c.df : clusters - 1;
  const half = tQuantile((1 + level) / 2, df) * Math.sqrt(c.variance);
  return { point, lo: Math.max(bounds[0], point - half), hi: Math.min(bounds[1], point + half), df, clusters, kind: 't' };
}
