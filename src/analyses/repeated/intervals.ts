/**
 * The intervals of the repeated analysis (docs/methods.md §21): by default small-sample
 * cluster-robust intervals with the match as the cluster (src/stats/cluster-intervals.ts: CR2 with
 * Satterthwaite degrees of freedom, the effective sample size near 0 or 1), or with
 * `--interval cluster-bootstrap` the percentile cluster bootstrap; either way no interval for a
 * statistic resting on fewer than MIN_CLUSTERS matches, and a flag below FEW_CLUSTERS.
 */
import type { Estimand } from '../../stats/bootstrap.js';
import { groupBootstrap, type GroupBootstrapResult } from '../../stats/group-bootstrap.js';
import { clusterCount, clusterDifferenceInterval, clusterRateInterval, MIN_CLUSTERS, type ClusterInterval,
  type ClusteredIntervalMethod } from '../../stats/cluster-intervals.js';
import type { ClusterColumn } from '../../stats/cluster-robust.js';
import { cellId, columnOf, type RepeatedCell } from './layout.js';

/** How the repeated analysis reads its intervals: cluster-robust (the default) or the cluster bootstrap. */
export type RepeatedInterval = ClusteredIntervalMethod;

/** Every statistic of the repeated analysis with its interval, parallel to the estimand's names. */
export interface RepeatedStatistics {
  readonly names: readonly string[];
  readonly point: Float64Array;
  /** NaN where there is no interval (fewer than MIN_CLUSTERS matches). */
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  /** Degrees of freedom of each interval (Satterthwaite; G − 1 for the bootstrap); NaN without one. */
  readonly df: Float64Array;
  /** Matches each statistic rests on. */
  readonly matches: Float64Array;
  /** How each interval was made: t, beta, mover, bootstrap or none. */
  readonly kind: readonly string[];
  /** The bootstrap's replicates where each statistic is defined (cluster bootstrap only). */
  readonly defined?: Float64Array;
}

const columnAt = (c: RepeatedCell, k: number): ClusterColumn => ({ sizes: c.columns.sizes[k], sums: c.columns.sums[k] });

interface Slots { offsets: readonly number[]; drops: readonly number[] }

/** Fills slot i of the statistics from one interval. */
function put(s: { point: Float64Array; lo: Float64Array; hi: Float64Array; df: Float64Array; matches: Float64Array; kind: string[] }, i: number,
  iv: ClusterInterval): void {
  s.point[i] = iv.point; s.lo[i] = iv.lo; s.hi[i] = iv.hi; s.df[i] = iv.df; s.matches[i] = iv.clusters; s.kind[i] = iv.kind;
}

function empty(names: readonly string[]) {
  const k = names.length;
  return { names, point: new Float64Array(k), lo: new Float64Array(k), hi: new Float64Array(k), df: new Float64Array(k), matches: new Float64Array(k),
    kind: new Array<string>(k).fill('none') };
}

/** Cluster-robust intervals of every rate of each cell and of its end-game drop (the last round minus the rounds before it, paired by match). */
export function robustStatistics(cells: readonly RepeatedCell[], estimand: Estimand, slots: Slots, level = 0.95): RepeatedStatistics {
  const s = empty(estimand.names);
  cells.forEach((c, i) => {
    const width = c.columns.sizes.length;
    for (let k = 0; k < width; k++) put(s, slots.offsets[i] + k, clusterRateInterval(columnAt(c, k), level));
    const last = columnAt(c, columnOf.round(c.horizon)), before = columnAt(c, columnOf.beforeLast(c.horizon));
    put(s, slots.drops[i], clusterDifferenceInterval(before, last, true, level));
  });
  return s;
}

/** The percentile cluster bootstrap of every statistic, without an interval below MIN_CLUSTERS matches. */
export function bootstrapStatistics(cells: readonly RepeatedCell[], estimand: Estimand, slots: Slots,
  opts: { seed: number; reps: number; onProgress?: (done: number, total: number) => void }): { stats: RepeatedStatistics; boot: GroupBootstrapResult } {
  const boot = groupBootstrap(cells.map((c) => ({ id: cellId(c), columns: c.columns })), estimand, opts);
  const s = { ...empty(estimand.names), point: Float64Array.from(boot.point), lo: Float64Array.from(boot.lo), hi: Float64Array.from(boot.hi),
    defined: boot.defined };
  const mark = (i: number, g: number) => {
    s.matches[i] = g;
    if (g < MIN_CLUSTERS || !Number.isFinite(s.lo[i])) { s.lo[i] = NaN; s.hi[i] = NaN; s.df[i] = NaN; s.kind[i] = 'none'; return; }
    s.df[i] = g - 1; s.kind[i] = 'bootstrap';
  };
  cells.forEach((c, i) => {
    for (let k = 0; k < c.columns.sizes.length; k++) mark(slots.offsets[i] + k, clusterCount(columnAt(c, k)));
    const g = Math.min(clusterCount(columnAt(c, columnOf.round(c.horizon))), clusterCount(columnAt(c, columnOf.beforeLast(c.horizon))));
    mark(slots.drops[i], g);
  });
  return { stats: s, boot };
}

/** Statistics that have a point estimate but no interval: they rest on fewer than MIN_CLUSTERS matches. */
export function withoutInterval(s: RepeatedStatistics): number {
  let n = 0;
  for (let i = 0; i < s.names.length; i++) if (Number.isFinite(s.point[i]) && s.kind[i] === 'none') n++;
  return n;
}
