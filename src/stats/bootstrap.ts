import { binomialSampler } from './binomial.js';
import { quantilesUnsorted } from './quantile.js';
import { streamFor } from './rng.js';
import type { Observations } from '../core/cells.js';
import { cellRate } from '../core/cells.js';

/**
 * A statistic vector computed from one rate per cell. The bootstrap engine calls `evaluate` once
 * on the observed rates and once per replicate on redrawn rates, so every statistic (cell, model,
 * pooled …) gets its interval the same way (docs/architecture.md, "one bootstrap engine").
 */
export interface Estimand {
  readonly names: readonly string[];
  evaluate(rates: Float64Array, out: Float64Array): void;
}

export interface BootstrapOptions {
  seed: number;
  reps: number;
  /** Interval level, default 0.95 (percentiles 2.5 and 97.5). */
  level?: number;
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
  get(name: string): Interval;
}

/**
 * Redraw one cell `reps` times into `out[r * stride + offset]`.
 * Binary cell: Binomial(n, x/n). Probability cell: the mean of n trials drawn with replacement.
 * The cell's stream is (seed, cellKey) only.
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
  const empty = obs.kind === 'binary' ? obs.n === 0 : obs.values.length === 0;
  if (empty) return (count, out, offset, stride) => { for (let r = 0; r < count; r++) out[r * stride + offset] = NaN; };
  if (obs.kind === 'binary') {
    const sampler = binomialSampler(obs.n, obs.x / obs.n);
    const inv = 1 / obs.n;
    return (count, out, offset, stride) => { for (let r = 0; r < count; r++) out[r * stride + offset] = sampler.draw(rng) * inv; };
  }
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

/** Replicates drawn per block: the rates held at once are cells × BLOCK_REPS, not cells × reps. */
export const BLOCK_REPS = 256;

/**
 * Percentile bootstrap over a set of cells. Replicate r redraws every cell independently and
 * re-evaluates the whole estimand on the redrawn rates; intervals are the (1−level)/2 and
 * (1+level)/2 quantiles with linear interpolation (numpy's default).
 */
export function bootstrap(cells: readonly { id: string; obs: Observations }[], estimand: Estimand,
  opts: BootstrapOptions): BootstrapResult {
  const { seed, reps } = opts;
  if (!Number.isInteger(reps) || reps < 1) throw new RangeError(`reps must be a positive integer: ${reps}`);
  const level = opts.level ?? 0.95;
  const k = cells.length;
  const s = estimand.names.length;

  const observed = new Float64Array(k);
  cells.forEach((c, i) => { observed[i] = cellRate(c.obs); });
  const point = new Float64Array(s);
  estimand.evaluate(observed, point);

  // Memory is statistics × reps (the replicates) plus cells × BLOCK_REPS (one block of redrawn
  // rates, replicate-major so one replicate's rates are contiguous): each cell's stream continues
  // from block to block, so the draws are those of one pass over all replicates.
  const drawers = cells.map((c) => cellDrawer(c.obs, seed, c.id));
  const block = Math.min(reps, BLOCK_REPS);
  const rates = new Float64Array(block * k);
  const replicates = new Float64Array(s * reps);
  const out = new Float64Array(s);
  const one = new Float64Array(k); // one replicate's rates, copied (cheaper than a view per replicate)
  const step = Math.max(1, Math.floor(reps / 50));
  for (let r0 = 0; r0 < reps; r0 += block) {
    const count = Math.min(block, reps - r0);
    drawers.forEach((draw, i) => draw(count, rates, i, k));
    for (let b = 0; b < count; b++) {
      const r = r0 + b;
      for (let i = 0, o = b * k; i < k; i++) one[i] = rates[o + i];
      estimand.evaluate(one, out);
      for (let j = 0; j < s; j++) replicates[j * reps + r] = out[j];
      if (opts.onProgress && (r % step === 0 || r === reps - 1)) opts.onProgress(r + 1, reps);
    }
  }

  const lo = new Float64Array(s);
  const hi = new Float64Array(s);
  const a = (1 - level) / 2;
  const scratch = new Float64Array(reps);
  for (let j = 0; j < s; j++) {
    scratch.set(replicates.subarray(j * reps, (j + 1) * reps));
    [lo[j], hi[j]] = quantilesUnsorted(scratch, [a, 1 - a]);
  }
  const index = new Map(estimand.names.map((n, i) => [n, i]));
  return {
    names: estimand.names, point, lo, hi, replicates, reps,
    get(name: string): Interval {
      const i = index.get(name);
      if (i === undefined) throw new Error(`no statistic named ${name}`);
      return { point: point[i], lo: lo[i], hi: hi[i] };
    },
  };
}
