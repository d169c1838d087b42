import { bootstrapResult, checkReplicateSize, drawReplicates, type BootstrapResult, type Estimand } from './bootstrap.js';
import { clusterColumnsDrawer, type ClusterColumns } from './cluster-columns.js';
import { quantilesUnsorted } from './quantile.js';
import { streamFor } from './rng.js';

/** Columns observed on the same clusters (e.g. the rounds and reactions of one cell's matches). */
export interface ClusterGroup {
  /** Names the group's random stream: (seed, id). */
  readonly id: string;
  readonly columns: ClusterColumns;
}

export interface GroupBootstrapOptions {
  readonly seed: number;
  readonly reps: number;
  /** Interval level, default 0.95. */
  readonly level?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

/** Σ sums / Σ sizes of each column of a group: the observed rates. */
function observedRates(g: ClusterGroup, out: Float64Array, offset: number): void {
  g.columns.sizes.forEach((sizes, c) => {
    let s = 0, n = 0;
    for (let j = 0; j < sizes.length; j++) { s += g.columns.sums[c][j]; n += sizes[j]; }
    out[offset + c] = s / n;
  });
}

/**
 * Percentile ends of each statistic over the replicates where it is defined: a rate of decisions
 * that some replicates do not draw (a rare previous round) is NaN there and left out, as numpy's
 * nanpercentile does; with no defined replicate the ends are NaN.
 */
function nanPercentiles(replicates: Float64Array, s: number, reps: number, level: number): { lo: Float64Array; hi: Float64Array; defined: Float64Array } {
  const lo = new Float64Array(s), hi = new Float64Array(s), defined = new Float64Array(s);
  const a = (1 - level) / 2;
  const scratch = new Float64Array(reps);
  for (let j = 0; j < s; j++) {
    let n = 0;
    for (let r = 0; r < reps; r++) { const x = replicates[j * reps + r]; if (x === x) scratch[n++] = x; }
    defined[j] = n;
    [lo[j], hi[j]] = quantilesUnsorted(scratch.subarray(0, n), [a, 1 - a]);
  }
  return { lo, hi, defined };
}

export interface GroupBootstrapResult extends BootstrapResult {
  /** Replicates in which each statistic is defined (not NaN), parallel to names. */
  readonly defined: Float64Array;
}

/**
 * The cluster bootstrap of groups of columns: every replicate redraws each group's clusters once
 * (m with replacement, from the group's own (seed, id) stream) and all of its columns from those
 * same clusters, so a statistic combining columns of one group (the last round against the rounds
 * before it) varies as its clusters do. Groups are redrawn independently of each other, as the
 * cells of `bootstrap` are; the estimand reads the columns of all groups, in order. Percentile
 * intervals over the replicates where a statistic is defined.
 */
export function groupBootstrap(groups: readonly ClusterGroup[], estimand: Estimand, opts: GroupBootstrapOptions): GroupBootstrapResult {
  const { seed, reps } = opts;
  checkReplicateSize(estimand.names.length, reps);
  const offsets: number[] = [];
  let k = 0;
  for (const g of groups) { offsets.push(k); k += g.columns.sizes.length; }
  const observed = new Float64Array(k);
  groups.forEach((g, i) => observedRates(g, observed, offsets[i]));
  const s = estimand.names.length;
  const point = new Float64Array(s);
  estimand.evaluate(observed, point);
  const drawers = groups.map((g, i) => ({ offset: offsets[i], draw: clusterColumnsDrawer(g.columns, streamFor(seed, g.id)) }));
  const replicates = drawReplicates(k, drawers, estimand, reps, opts.onProgress);
  const level = opts.level ?? 0.95;
  const { lo, hi, defined } = nanPercentiles(replicates, s, reps, level);
  const levels = { lo: new Float64Array(s).fill((1 - level) / 2), hi: new Float64Array(s).fill((1 + level) / 2) };
  return { ...bootstrapResult(estimand, point, replicates, reps, 'percentile', { lo, hi, notes: [], fellBack: new Set(), levels }), defined };
}
