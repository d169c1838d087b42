/**
 * Intervals for rates of clustered decisions and their differences (docs/methods.md, "Clustered
 * data"), from the CR2 variance and Satterthwaite degrees of freedom of `cluster-robust.ts`:
 *
 * - a rate: r ± t_{ν, 1−α/2} · √V (with equal match lengths: the t interval on G − 1 df of the
 *   match means); where that interval leaves [0, 1] (near 0 or 1), the Clopper–Pearson interval on
 *   the effective sample size of Korn & Graubard (1998), as survey::svyciprop(method = "beta"):
 *   n* = min(N, r(1 − r)/V) · (t_{N−1} / t_ν)², x* = n*·r; where V = 0 (every match alike, e.g.
 *   every decision 1), which says nothing of the within-match correlation, the same on
 *   n* = √(N·G), midway on the log scale between independent decisions (n* = N) and perfectly
 *   correlated matches (n* = G);
 * - a difference of two rates: r₂ − r₁ ± t_ν · √V with ν Satterthwaite's; where either rate has
 *   every match alike (its V = 0, so it adds nothing to √V), the MOVER combination of the two rates' intervals
 *   (Newcombe 1998; Zou & Donner 2008);
 * - a mean of independent cells' rates (a model over its opponents): the t interval of the linear
 *   combination, and where it leaves [0, 1], Clopper–Pearson on the effective n of the mean, as for a rate;
 * - fewer than MIN_CLUSTERS matches: no interval (NaN ends); at least MIN_CLUSTERS matches but fewer
 *   than MIN_CLUSTERS effective matches (Σn_g)²/Σn_g² (one match holding most decisions): a rate's
 *   and a difference's interval on the match means (cluster-means.ts, kind 'means'); other
 *   combinations none.
 */
import { holdingPoint, matchMeans, pairedMeans, welchDifference } from './cluster-means.js';
import { cr2Contrast, type ClusterColumn, type ContrastTerm } from './cluster-robust.js';
export { derivatives } from './derivatives.js';
import { betaQuantile, tQuantile } from './t-beta.js';

/** How intervals of clustered data are made: small-sample cluster-robust (the default) or the percentile cluster bootstrap. */
export type ClusteredIntervalMethod = 'cluster-robust' | 'cluster-bootstrap';

/** Matches a statistic must rest on for an interval: with two, G − 1 = 1 degree of freedom and no usable spread. */
export const MIN_CLUSTERS = 3;
/** Below this many matches an interval is flagged as resting on few degrees of freedom. */
export const FEW_CLUSTERS = 10;

/**
 * How an interval was made: t (CR2, Satterthwaite df), beta (Clopper–Pearson on the effective n), mover, means (on the match
 * means, one match holding most decisions), or none.
 */
export type ClusterIntervalKind = 't' | 'beta' | 'mover' | 'means' | 'none';

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

/**
 * The effective number of clusters of a column, (Σ n_g)² / Σ n_g² (Kish's effective count of
 * equally weighted matches): G with equal match lengths, near 1 when one match holds most
 * decisions, where no cluster-robust variance has the spread to rest on.
 */
export function effectiveClusterCount(col: ClusterColumn): number {
  let s = 0, s2 = 0;
  for (let j = 0; j < col.sizes.length; j++) { const n = col.sizes[j]; if (n > 0) { s += n; s2 += n * n; } }
  return s2 > 0 ? (s * s) / s2 : 0;
}

/** One match holds most decisions: at least MIN_CLUSTERS matches, fewer than MIN_CLUSTERS effective ones. */
export const dominated = (col: ClusterColumn): boolean => clusterCount(col) >= MIN_CLUSTERS && effectiveClusterCount(col) < MIN_CLUSTERS;

/** Too few matches, or too few effective matches, for an interval. */
const tooFew = (col: ClusterColumn): boolean => clusterCount(col) < MIN_CLUSTERS || effectiveClusterCount(col) < MIN_CLUSTERS;

function decisions(col: ClusterColumn): number {
  let n = 0;
  for (let j = 0; j < col.sizes.length; j++) n += col.sizes[j];
  return n;
}

/**
 * An interval end within 10⁻⁶ of a bound of the statistic is the bound: a Clopper–Pearson end of
 * 1 − 10⁻⁷ (a rate near 1 on a small effective n) says nothing 1 does not, and would read as
 * rounding noise in the files.
 */
function snap(x: number, lo: number, hi: number): number {
  if (Math.abs(x - lo) < 1e-6) return lo;
  if (Math.abs(hi - x) < 1e-6) return hi;
  return x;
}

/**
 * Clopper–Pearson ends for x* = n*·r of n* (real-valued), at level: two-sided (α/2 in each tail,
 * the default), or with `sides` = 1 each end a one-sided bound at level (α in its tail). At the
 * boundary the beta quantile has a closed form (Clopper & Pearson 1934): for x* = 0 the upper end
 * is 1 − a^(1/n*), for x* = n* the lower end a^(1/n*), a the tail.
 */
export function clopperPearson(r: number, nEff: number, level: number, sides: 1 | 2 = 2): [number, number] {
  const a = sides === 2 ? (1 - level) / 2 : 1 - level;
  const x = nEff * r;
  const lo = r <= 0 ? 0 : r >= 1 ? Math.pow(a, 1 / nEff) : betaQuantile(a, x, nEff - x + 1);
  const hi = r >= 1 ? 1 : r <= 0 ? 1 - Math.pow(a, 1 / nEff) : betaQuantile(1 - a, x + 1, nEff - x);
  return [snap(lo, 0, 1), snap(hi, 0, 1)];
}

/**
 * One column's rate interval and CR2 variance, computed once per column object: Table 3's
 * statistics read the same cells many times (a pair's R and shift, the model's, the pooled ones).
 */
const rateCache = new WeakMap<ClusterColumn, Map<number, ClusterInterval>>();
const varianceCache = new WeakMap<ClusterColumn, number>();

/** The CR2 variance of one column's rate. */
export function columnVariance(col: ClusterColumn): number {
  let v = varianceCache.get(col);
  if (v === undefined) { v = cr2Contrast([{ group: 0, column: col, coef: 1 }]).variance; varianceCache.set(col, v); }
  return v;
}

/** The interval of one column's rate (module header); the same for the same column object and level. */
export function clusterRateInterval(col: ClusterColumn, level = 0.95): ClusterInterval {
  let byLevel = rateCache.get(col);
  if (!byLevel) { byLevel = new Map(); rateCache.set(col, byLevel); }
  let iv = byLevel.get(level);
  if (!iv) { iv = rateInterval(col, level); byLevel.set(level, iv); }
  return iv;
}

function rateInterval(col: ClusterColumn, level: number): ClusterInterval {
  const G = clusterCount(col);
  const c = cr2Contrast([{ group: 0, column: col, coef: 1 }]);
  const r = c.estimate;
  if (dominated(col)) return holdingPoint(rateInterval(matchMeans(col), level), r, [0, 1]);
  if (tooFew(col) || !Number.isFinite(c.variance)) return none(r, G);
  // With every match alike the Satterthwaite df is still defined (it does not depend on the outcomes).
  const df = Number.isFinite(c.df) ? c.df : G - 1;
  const t = tQuantile((1 + level) / 2, df);
  const half = t * Math.sqrt(c.variance);
  if (c.variance > 0 && r - half >= 0 && r + half <= 1) return { point: r, lo: snap(r - half, 0, 1), hi: snap(r + half, 0, 1), df, clusters: G, kind: 't' };
  const N = decisions(col);
  // Korn & Graubard's effective n, truncated at N (a design effect below 1 is not credited), with
  // svyciprop's degrees-of-freedom adjustment; √(N·G) where V = 0 says nothing of the correlation
  const nEff = c.variance > 0 ? Math.min(N, (r * (1 - r)) / c.variance) * (tQuantile((1 + level) / 2, Math.max(1, N - 1)) / t) ** 2 : Math.sqrt(N * G);
  const [lo, hi] = clopperPearson(r, nEff, level);
  return { point: r, lo, hi, df, clusters: G, kind: 'beta' };
}

/**
 * r(b) − r(a) with its interval. `paired`: the two columns are disjoint columns of the same matches
 * (the last round against the rounds before it); otherwise each has matches of its own.
 */
export function clusterDifferenceInterval(a: ClusterColumn, b: ClusterColumn, paired: boolean, level = 0.95): ClusterInterval {
  if (dominated(a) || dominated(b)) return meansDifference(a, b, paired, level);
  const ia = clusterRateInterval(a, level), ib = clusterRateInterval(b, level);
  const terms: ContrastTerm[] = [{ group: 0, column: a, coef: -1 }, { group: paired ? 0 : 1, column: b, coef: 1 }];
  const c = cr2Contrast(terms);
  const d = ib.point - ia.point;
  const clusters = Math.min(ia.clusters, ib.clusters);
  if (ia.kind === 'none' || ib.kind === 'none' || !Number.isFinite(c.variance)) return none(d, clusters);
  const df = Number.isFinite(c.df) ? c.df : clusters - 1;
  const flat = (col: ClusterColumn) => !(columnVariance(col) > 0);
  if (c.variance > 0 && !flat(a) && !flat(b)) {
    const half = tQuantile((1 + level) / 2, df) * Math.sqrt(c.variance);
    return { point: d, lo: snap(Math.max(-1, d - half), -1, 1), hi: snap(Math.min(1, d + half), -1, 1), df, clusters, kind: 't' };
  }
  const lo = d - Math.hypot(ib.point - ib.lo, ia.hi - ia.point);
  const hi = d + Math.hypot(ib.hi - ib.point, ia.point - ia.lo);
  return { point: d, lo: snap(Math.max(-1, lo), -1, 1), hi: snap(Math.min(1, hi), -1, 1), df, clusters, kind: 'mover' };
}

/**
 * A difference where one match holds most decisions of a cell (cluster-means.ts): paired, the t
 * interval of the match-level differences; otherwise Welch's on the match means, or where a cell
 * has every match alike, the combination of the two match-means intervals; widened to hold the pooled difference.
 */
function meansDifference(a: ClusterColumn, b: ClusterColumn, paired: boolean, level: number): ClusterInterval {
  const d = cr2Contrast([{ group: 0, column: b, coef: 1 }]).estimate - cr2Contrast([{ group: 0, column: a, coef: 1 }]).estimate;
  const [ma, mb] = paired ? pairedMeans(a, b) : [matchMeans(a), matchMeans(b)];
  const w = paired ? undefined : welchDifference(ma, mb, level);
  const clusters = Math.min(clusterCount(ma), clusterCount(mb));
  const iv = w && clusters >= MIN_CLUSTERS ? { ...w, lo: Math.max(-1, w.lo), hi: Math.min(1, w.hi), clusters, kind: 't' as const }
    : clusterDifferenceInterval(ma, mb, paired, level);
  return holdingPoint(iv, d, [-1, 1]);
}

/**
 * The variance a cell whose matches are all alike stands for: its CR2 variance is 0, but its rate
 * is uncertain — the half-width of its interval (Clopper–Pearson on √(N·G), above) over t_{G−1}, squared.
 */
function flatVariance(column: ClusterColumn, level: number): number {
  const iv = clusterRateInterval(column, level);
  if (iv.kind === 'none') return 0;
  const t = tQuantile((1 + level) / 2, Math.max(1, iv.clusters - 1));
  return ((iv.hi - iv.lo) / (2 * t)) ** 2;
}

/**
 * A linear combination Σ c_k · rate_k of independent cells' rates (each its own matches): the CR2
 * variance and Satterthwaite df of `cr2Contrast`, the t interval clipped to `bounds` (exact for a
 * mean of shifts). No interval when a cell with a non-zero coefficient has fewer than MIN_CLUSTERS matches.
 */
export function clusterLinearInterval(columns: readonly ClusterColumn[], coefs: ArrayLike<number>, point: number,
  bounds: readonly [number, number], level = 0.95, groups?: ArrayLike<number>): ClusterInterval {
  return clusterSmoothInterval(columns, coefs, undefined, point, bounds, { level, centre: false, groups });
}

/**
 * The unweighted mean of independent cells' rates (a model's rate over its opponents,
 * reports/models.csv): one cell, that cell's rate interval; otherwise the t interval of the linear
 * combination (`clusterLinearInterval`), and where that leaves [0, 1] or has no width, as for a
 * rate, Clopper–Pearson on Korn & Graubard's effective n of the mean, n* = min(N, r(1 − r)/V) ·
 * (t_{N−1}/t_ν)² with N the cells' decisions (√(N·G) where r(1 − r)·V = 0, G their matches).
 */
export function clusterMeanRateInterval(columns: readonly ClusterColumn[], level = 0.95): ClusterInterval {
  if (columns.length === 1) return clusterRateInterval(columns[0], level);
  const K = columns.length;
  let point = 0, N = 0, G = 0;
  for (const col of columns) {
    const n = decisions(col);
    let x = 0;
    for (let j = 0; j < col.sums.length; j++) x += col.sums[j];
    point += x / n / K; N += n; G += clusterCount(col);
  }
  const iv = clusterLinearInterval(columns, columns.map(() => 1 / K), point, [-Infinity, Infinity], level);
  if (iv.kind === 'none' || (iv.lo >= 0 && iv.hi <= 1 && iv.hi > iv.lo)) return { ...iv, lo: snap(iv.lo, 0, 1), hi: snap(iv.hi, 0, 1) };
  const t = tQuantile((1 + level) / 2, iv.df);
  const V = ((iv.hi - iv.lo) / (2 * t)) ** 2, spread = point * (1 - point);
  const nEff = spread > 0 && V > 0 ? Math.min(N, spread / V) * (tQuantile((1 + level) / 2, Math.max(1, N - 1)) / t) ** 2 : Math.sqrt(N * G);
  const [lo, hi] = clopperPearson(point, nEff, level);
  return { ...iv, lo, hi, kind: 'beta' };
}

/**
 * A smooth statistic f of independent cells' rates that is largest at equal rates (an R), by the
 * delta method to second order: gradient g_k and curvature h_k = ∂²f/∂r_k² at the observed rates,
 * each cell's CR2 variance V_k. The interval is f ± t_ν √V(Σ g_k r_k) with its lower end moved
 * down by t_ν² · ½ Σ_k |h_k| V_k — the reach of the quadratic term, which alone bounds f where
 * its gradient vanishes (equal rates); or, with `centre` (an average of several such terms, whose
 * bias stays while its spread shrinks), centred on the bias-corrected value f − ½ Σ_k h_k V_k
 * and extended to hold f, without the reach. Clipped to `bounds`; no interval when a cell f
 * depends on has fewer than MIN_CLUSTERS matches. Without a curvature: the linear interval. Cells
 * are independent unless `groups` puts several in one group: columns of the same matches (index j
 * the same match in each), their covariance within a match counted (a paired design).
 */
export function clusterSmoothInterval(columns: readonly ClusterColumn[], coefs: ArrayLike<number>, curvature: ArrayLike<number> | undefined,
  point: number, bounds: readonly [number, number], opts: { level?: number; centre: boolean; groups?: ArrayLike<number> }): ClusterInterval {
  const level = opts.level ?? 0.95;
  const terms: ContrastTerm[] = [];
  let clusters = Infinity, quad = 0, bias = 0, few = false;
  let flat = 0; // Σ c_k² V*_k of the cells whose matches are all alike (their CR2 variance is 0)
  columns.forEach((column, k) => {
    // a gradient at rounding level (equal rates) is none: the quadratic term alone bounds f
    const c = Math.abs(coefs[k]) < 1e-7 ? 0 : coefs[k], h = curvature ? curvature[k] : 0;
    if (c === 0 && h === 0) return;
    clusters = Math.min(clusters, clusterCount(column));
    few ||= tooFew(column);
    if (c !== 0) terms.push({ group: opts.groups ? opts.groups[k] : k, column, coef: c });
    let v = columnVariance(column);
    if (v === 0) { v = flatVariance(column, level); flat += c * c * v; }
    if (h !== 0) { quad += 0.5 * Math.abs(h) * v; bias += 0.5 * h * v; }
  });
  if (!Number.isFinite(point) || clusters === Infinity) return none(point, 0);
  const c0 = terms.length ? cr2Contrast(terms) : { variance: 0, df: NaN };
  const c = { variance: c0.variance + flat, df: c0.df };
  if (few || !Number.isFinite(c.variance) || !Number.isFinite(quad)) return none(point, clusters);
  const df = Number.isFinite(c.df) ? c.df : clusters - 1; // no gradient: G − 1 of the fewest matches
  const t = tQuantile((1 + level) / 2, df);
  const half = t * Math.sqrt(c.variance), reach = opts.centre ? 0 : t * t * quad;
  // The interval spans the bias-corrected one and the point itself (a reported interval holds its point).
  const centre = opts.centre ? Math.min(bounds[1], Math.max(bounds[0], point - bias)) : point;
  const lo = Math.max(bounds[0], Math.min(point, centre - half - reach)), hi = Math.min(bounds[1], Math.max(point, centre + half));
  return { point, lo: snap(lo, bounds[0], bounds[1]), hi: snap(hi, bounds[0], bounds[1]), df, clusters, kind: 't' };
}
