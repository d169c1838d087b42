import { binomialSampler } from './binomial.js';
import { quantilesUnsorted } from './quantile.js';
import { streamFor } from './rng.js';
import { clusterColumnsDrawer } from './cluster-columns.js';
import type { ClusteredObservations, Observations } from '../core/cells.js';
import { cellRate } from '../core/cells.js';
import { UserError } from '../core/errors.js';
import { bcaInterval, binaryJackknife, jackknifeAcceleration, valuesJackknife, type CellJackknife } from './bca.js';
import { leaveOneClusterOut } from './jackknife.js';
import { statsMsg } from './messages.js';

/** How intervals are read off the replicates: percentile (the paper's) or BCa (docs/methods.md §8.2). */
export type IntervalMethod = 'percentile' | 'bca';
export const INTERVAL_METHODS: readonly IntervalMethod[] = ['percentile', 'bca'];

/**
 * What a statistic is, declared by the estimand that computes it: verification selects
 * statistics by kind and checks them against their bounds (never by a name pattern).
 */
export type StatKind = 'robustness' | 'shift' | 'lambda' | 'lambda-variance' | 'other';

export interface StatInfo {
  readonly kind: StatKind;
  /** The range the statistic cannot leave, [lo, hi]; ±Infinity where unbounded. */
  readonly bounds: readonly [number, number];
  /**
   * The bound the statistic reaches at an interior extremum of the rates (R = 1 at equal rates,
   * V_λ = 0 at equal λ̂): sampling noise only moves the estimate away from it, so the estimate is
   * biased away from that bound and a percentile interval can miss its point on that side.
   */
  readonly biasedAwayFrom?: 'lower' | 'upper';
}

/** A robustness score R ∈ [0, 1], equal to 1 at equal rates. */
export const ROBUSTNESS: StatInfo = { kind: 'robustness', bounds: [0, 1], biasedAwayFrom: 'upper' };
/** An action shift, a difference of rates, in [−1, 1]. */
export const SHIFT: StatInfo = { kind: 'shift', bounds: [-1, 1] };

export const UNBOUNDED: StatInfo = { kind: 'other', bounds: [-Infinity, Infinity] };

/**
 * A statistic vector computed from one rate per cell. The bootstrap engine calls `evaluate` once
 * on the observed rates and once per replicate on redrawn rates, so every statistic (cell, model,
 * pooled …) gets its interval the same way (docs/architecture.md, "one bootstrap engine").
 */
export interface Estimand {
  readonly names: readonly string[];
  /** Kind and bounds of each statistic, parallel to names (absent: every statistic UNBOUNDED). */
  readonly info?: readonly StatInfo[];
  evaluate(rates: Float64Array, out: Float64Array): void;
}

export interface BootstrapOptions {
  seed: number;
  reps: number;
  /** Interval level, default 0.95 (percentiles 2.5 and 97.5). */
  level?: number;
  /** Interval method, default percentile. */
  method?: IntervalMethod;
  /** Called now and then with (done, total) replicates, for progress display. */
  onProgress?: (done: number, total: number) => void;
}

export interface Interval {
  readonly point: number;
  readonly lo: number;
  readonly hi: number;
}

export interface BootstrapResult {
  readonly names: readonly string[];
  readonly point: Float64Array;
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  /** Replicate values, statistic-major: replicates[s * reps + r]. */
  readonly replicates: Float64Array;
  readonly reps: number;
  readonly method: IntervalMethod;
  /** Kind and bounds of every statistic, parallel to names. */
  readonly info: readonly StatInfo[];
  /** Statistics whose BCa interval fell back to the percentile one (z0 infinite), with why. */
  readonly notes: readonly string[];
  /** Names of the statistics whose BCa interval fell back to the percentile one. */
  readonly fellBack: ReadonlySet<string>;
  /** The quantile level each end was read at, parallel to names: (1 ∓ level)/2, or the BCa-adjusted levels. */
  readonly levels: { readonly lo: Float64Array; readonly hi: Float64Array };
  get(name: string): Interval;
  /** Position of a statistic in names (its replicates are replicates[i · reps …]); −1 when absent. */
  indexOf(name: string): number;
}

/** Leave-one-cluster-out: the clusters are the units the clustered bootstrap resamples. */
function clusterJackknife(obs: ClusteredObservations): CellJackknife {
  const m = obs.sizes.length;
  if (m < 2) return { rates: new Float64Array(0), weights: new Float64Array(0), units: m };
  return { rates: leaveOneClusterOut(obs), weights: new Float64Array(m).fill(1), units: m };
}

/** The jackknife of one cell for the BCa acceleration: leave one trial (binary, probability) or cluster out. */
export function cellJackknife(obs: Observations): CellJackknife {
  switch (obs.kind) {
    case 'binary': return binaryJackknife(obs.n, obs.x);
    case 'prob': return valuesJackknife(obs.values);
    case 'clustered': return clusterJackknife(obs);
  }
}

/**
 * Redraw one cell `reps` times into `out[r * stride + offset]`.
 * Binary cell: Binomial(n, x/n). Probability cell: the mean of n trials drawn with replacement.
 * Clustered cell: m whole clusters drawn with replacement, the rate being the mean over the drawn
 * clusters' decisions (Σ sums / Σ sizes). The cell's stream is (seed, cellKey) only.
 */
export function redrawCell(obs: Observations, seed: number, cellKey: string, reps: number,
  out: Float64Array, offset: number, stride: number): void {
  cellDrawer(obs, seed, cellKey)(reps, out, offset, stride);
}

/**
 * A cell's redraws as a resumable sequence: each call writes the next `count` replicate rates
 * into `out[r * stride + offset]`, continuing the cell's (seed, cellKey) stream, so drawing in
 * blocks gives the same values as drawing all replicates at once.
 */
export type CellDrawer = (count: number, out: Float64Array, offset: number, stride: number) => void;

export function cellDrawer(obs: Observations, seed: number, cellKey: string): CellDrawer {
  const rng = streamFor(seed, cellKey);
  const empty = obs.kind === 'binary' ? obs.n === 0 : obs.kind === 'clustered' ? obs.sizes.length === 0 : obs.values.length === 0;
  if (empty) return (count, out, offset, stride) => { for (let r = 0; r < count; r++) out[r * stride + offset] = NaN; };
  if (obs.kind === 'binary') {
    const sampler = binomialSampler(obs.n, obs.x / obs.n);
    const inv = 1 / obs.n;
    return (count, out, offset, stride) => { for (let r = 0; r < count; r++) out[r * stride + offset] = sampler.draw(rng) * inv; };
  }
  if (obs.kind === 'clustered') return clusterColumnsDrawer({ sizes: [obs.sizes], sums: [obs.sums] }, rng);
  const v = obs.values;
  const m = v.length;
  return (count, out, offset, stride) => {
    for (let r = 0; r < count; r++) {
      let s = 0;
      for (let i = 0; i < m; i++) s += v[Math.floor(rng.next() * m)];
      out[r * stride + offset] = s / m;
    }
  };
}

export interface Intervals { lo: Float64Array; hi: Float64Array; notes: string[]; fellBack: Set<string>; levels: { lo: Float64Array; hi: Float64Array } }

/** The (1−level)/2 and (1+level)/2 quantiles of each statistic's replicates. */
export function percentileIntervals(replicates: Float64Array, s: number, reps: number, level: number): Intervals {
  const lo = new Float64Array(s);
  const hi = new Float64Array(s);
  const a = (1 - level) / 2;
  const scratch = new Float64Array(reps);
  for (let j = 0; j < s; j++) {
    scratch.set(replicates.subarray(j * reps, (j + 1) * reps));
    [lo[j], hi[j]] = quantilesUnsorted(scratch, [a, 1 - a]);
  }
  return { lo, hi, notes: [], fellBack: new Set(), levels: { lo: new Float64Array(s).fill(a), hi: new Float64Array(s).fill(1 - a) } };
}

/**
 * Largest replicate matrix (statistics × reps) the bootstrap holds: 2^29 values, 4 GiB. Every
 * statistic's interval needs all of its replicates at once; above this a table is refused
 * before any draw, with the --reps that would fit, rather than exhausting the machine's memory.
 */
export const MAX_REPLICATE_VALUES = 2 ** 29;

/** Replicates drawn per block: the rates held at once are cells × BLOCK_REPS, not cells × reps. */
export const BLOCK_REPS = 256;

/** Refuses, before any evaluation or draw, a replicate matrix above MAX_REPLICATE_VALUES (with the --reps that would fit). */
export function checkReplicateSize(statistics: number, reps: number): void {
  if (!Number.isInteger(reps) || reps < 1) throw new RangeError(`reps must be a positive integer: ${reps}`);
  const s = statistics;
  if (s * reps > MAX_REPLICATE_VALUES) throw new UserError(statsMsg.tooManyReplicates(s, reps, Math.floor(MAX_REPLICATE_VALUES / s), MAX_REPLICATE_VALUES * 8));
}

/**
 * BCa intervals of every statistic from the same replicates: acceleration from the jackknife of
 * every cell (docs/methods.md §8.2); where z0 is infinite, the percentile ends and a note.
 */
export function bcaIntervals(cells: readonly { obs: Observations }[], estimand: Estimand, observed: Float64Array,
  point: Float64Array, replicates: Float64Array, reps: number, level: number): Intervals {
  const s = estimand.names.length;
  const accel = jackknifeAcceleration(observed, cells.map((c) => cellJackknife(c.obs)), (r, o) => estimand.evaluate(r, o), s);
  const lo = new Float64Array(s);
  const hi = new Float64Array(s);
  const notes: string[] = [];
  const fellBack = new Set<string>();
  const levels = { lo: new Float64Array(s), hi: new Float64Array(s) };
  const scratch = new Float64Array(reps);
  for (let j = 0; j < s; j++) {
    scratch.set(replicates.subarray(j * reps, (j + 1) * reps));
    const b = bcaInterval(scratch, point[j], accel[j], level);
    lo[j] = b.lo; hi[j] = b.hi;
    [levels.lo[j], levels.hi[j]] = b.levels;
    if (b.fallback) fellBack.add(estimand.names[j]);
    if (b.fallback) notes.push(`${estimand.names[j]}: every replicate lies ${b.z0 > 0 ? 'below' : 'above'} the point (z0 infinite); percentile interval used`);
  }
  return { lo, hi, notes, fellBack, levels };
}

/** Statistics per tile of the block transpose: reads and writes both stay in a few cache lines. */
const TILE = 128;

/** replicates[j · reps + r0 + b] = outs[b · s + j] for b < count, j < s, tile by tile. */
function transposeBlock(outs: Float64Array, count: number, s: number, replicates: Float64Array, reps: number, r0: number): void {
  for (let j0 = 0; j0 < s; j0 += TILE) {
    const j1 = Math.min(s, j0 + TILE);
    for (let b = 0; b < count; b++) {
      const o = b * s, r = r0 + b;
      for (let j = j0; j < j1; j++) replicates[j * reps + r] = outs[o + j];
    }
  }
}

/** A drawer writing consecutive rates of each replicate from `offset` on (one cell, or a group drawn jointly). */
export interface RateDrawer {
  readonly offset: number;
  readonly draw: CellDrawer;
}

/**
 * The replicate matrix (statistic-major: replicates[s · reps + r]) of an estimand over k rates
 * redrawn by `drawers`. Memory is statistics × reps (the replicates) plus k × BLOCK_REPS (one
 * block of redrawn rates, replicate-major so one replicate's rates are contiguous): each drawer's
 * stream continues from block to block, so the draws are those of one pass over all replicates.
 */
export function drawReplicates(k: number, drawers: readonly RateDrawer[], estimand: Estimand, reps: number,
  onProgress?: (done: number, total: number) => void): Float64Array {
  const s = estimand.names.length;
  const block = Math.min(reps, BLOCK_REPS);
  const rates = new Float64Array(block * k);
  const replicates = new Float64Array(s * reps);
  // One block of statistics, replicate-major as evaluated, then copied out statistic by statistic:
  // writing each value straight to replicates[j · reps + r] strides reps · 8 bytes per statistic,
  // a cache miss per value once there are thousands of statistics.
  const outs = new Float64Array(block * s);
  const one = new Float64Array(k); // one replicate's rates, copied (cheaper than a view per replicate)
  const step = Math.max(1, Math.floor(reps / 50));
  for (let r0 = 0; r0 < reps; r0 += block) {
    const count = Math.min(block, reps - r0);
    for (const d of drawers) d.draw(count, rates, d.offset, k);
    for (let b = 0; b < count; b++) {
      const r = r0 + b;
      for (let i = 0, o = b * k; i < k; i++) one[i] = rates[o + i];
      estimand.evaluate(one, outs.subarray(b * s, (b + 1) * s));
      if (onProgress && (r % step === 0 || r === reps - 1)) onProgress(r + 1, reps);
    }
    transposeBlock(outs, count, s, replicates, reps, r0);
  }
  return replicates;
}

/** The result of a bootstrap from its point estimates, replicates and intervals. */
export function bootstrapResult(estimand: Estimand, point: Float64Array, replicates: Float64Array, reps: number,
  method: IntervalMethod, iv: Intervals): BootstrapResult {
  const index = new Map(estimand.names.map((n, i) => [n, i]));
  return {
    names: estimand.names, point, lo: iv.lo, hi: iv.hi, replicates, reps, method,
    info: estimand.info ?? estimand.names.map(() => UNBOUNDED),
    notes: iv.notes,
    fellBack: iv.fellBack,
    levels: iv.levels,
    indexOf: (name: string) => index.get(name) ?? -1,
    get(name: string): Interval {
      const i = index.get(name);
      if (i === undefined) throw new Error(`no statistic named ${name}`);
      return { point: point[i], lo: iv.lo[i], hi: iv.hi[i] };
    },
  };
}

/**
 * Bootstrap over a set of cells. Replicate r redraws every cell independently and
 * re-evaluates the whole estimand on the redrawn rates; percentile intervals are the (1−level)/2
 * and (1+level)/2 quantiles with linear interpolation (numpy's default), BCa intervals those
 * quantiles moved by the bias correction and acceleration.
 */
export function bootstrap(cells: readonly { id: string; obs: Observations }[], estimand: Estimand,
  opts: BootstrapOptions): BootstrapResult {
  const { seed, reps } = opts;
  const level = opts.level ?? 0.95;
  const k = cells.length;
  const s = estimand.names.length;
  checkReplicateSize(s, reps);
  const observed = new Float64Array(k);
  cells.forEach((c, i) => { observed[i] = cellRate(c.obs); });
  const point = new Float64Array(s);
  estimand.evaluate(observed, point);
  const drawers = cells.map((c, i) => ({ offset: i, draw: cellDrawer(c.obs, seed, c.id) }));
  const replicates = drawReplicates(k, drawers, estimand, reps, opts.onProgress);
  const iv = opts.method === 'bca'
    ? bcaIntervals(cells, estimand, observed, point, replicates, reps, level)
    : percentileIntervals(replicates, s, reps, level);
  return bootstrapResult(estimand, point, replicates, reps, opts.method ?? 'percentile', iv);
}
