import type { BinaryObservations, CellTable } from '../../core/cells.js';
import { cellId } from '../../core/cells.js';
import { POOLED } from '../../core/names.js';
import type { TwoFramingLayout } from '../two-framing/index.js';
import { redrawCell, type Interval } from '../../stats/bootstrap.js';
import { quantileSorted } from '../../stats/quantile.js';
import { robustness2 } from '../../stats/jsd.js';

/** The two headline statistics of Same Game, Different Story Table 3 (conservative R and action shift). */
export type HeadlineKind = 'R' | 'shift';

export interface ReplicateSettings {
  readonly seed: number;
  readonly reps: number;
  readonly attenuation: number;
  /** Interval level, default 0.95. */
  readonly level?: number;
}

/**
 * The two-framing bootstrap of src/pipeline/two-framing.ts, kept open so that single counts can
 * be changed and the headline statistics re-read cheaply — what the reading-error, tipping-point
 * and influence searches need thousands of times.
 *
 * It reproduces the engine bit for bit: a cell's replicate rates come from the shared
 * `redrawCell` with the same (seed, cell id) stream; pair and group values are summed in the
 * estimand's order; intervals are the same percentiles. Changing a count changes only that
 * cell's column (and its pair's), so one change costs O(reps), not a whole bootstrap. Because the
 * sampler is an inverse CDF on the cell's fixed uniforms, a changed count reuses the same
 * uniforms: the draws move monotonically with the count (common random numbers), which keeps
 * comparisons between neighbouring configurations free of fresh Monte Carlo noise.
 */
export class ReplicateState {
  readonly reps: number;
  readonly counts: Int32Array;
  readonly ns: Int32Array;
  readonly ids: readonly string[];
  private readonly cols: Float64Array[];
  private readonly pairR2: Float64Array[];
  private readonly pairShift: Float64Array[];
  private readonly pairOf: Int32Array;
  private readonly groupPairsMap = new Map<string, number[]>();
  private readonly scratch: Float64Array;

  constructor(readonly table: CellTable, readonly layout: TwoFramingLayout, readonly settings: ReplicateSettings) {
    const k = table.cells.length;
    this.reps = settings.reps;
    this.counts = new Int32Array(k);
    this.ns = new Int32Array(k);
    this.ids = table.cells.map((c) => cellId(table.factors, c.key));
    this.cols = [];
    this.pairOf = new Int32Array(k).fill(-1);
    table.cells.forEach((c, i) => {
      if (c.obs.kind !== 'binary') throw new Error(`audit needs binary cells; ${this.ids[i]} holds per-trial probabilities`);
      this.counts[i] = c.obs.x;
      this.ns[i] = c.obs.n;
      this.cols.push(new Float64Array(this.reps));
      this.redraw(i);
    });
    this.pairR2 = layout.pairs.map(() => new Float64Array(this.reps));
    this.pairShift = layout.pairs.map(() => new Float64Array(this.reps));
    layout.pairs.forEach((p, j) => { this.pairOf[p.baseIndex] = j; this.pairOf[p.altIndex] = j; this.repair(j); });
    for (const m of layout.models) this.groupPairsMap.set(m, []);
    layout.pairs.forEach((p, j) => this.groupPairsMap.get(p.model)!.push(j));
    this.groupPairsMap.set(POOLED, layout.pairs.map((_, j) => j));
    this.scratch = new Float64Array(this.reps);
  }

  /** Pair indices that make up a group (a model, or Pooled), in layout order. */
  groupPairs(group: string): readonly number[] {
    const g = this.groupPairsMap.get(group);
    if (!g) throw new Error(`no group ${group}`);
    return g;
  }

  /** Cells whose counts can move a group's statistics: both cells of each of its pairs. */
  scopeCells(group: string): number[] {
    return this.groupPairs(group).flatMap((j) => [this.layout.pairs[j].baseIndex, this.layout.pairs[j].altIndex]);
  }

  setCount(i: number, x: number): void {
    if (!Number.isInteger(x) || x < 0 || x > this.ns[i]) throw new RangeError(`count ${x} outside [0, ${this.ns[i]}] for ${this.ids[i]}`);
    if (this.counts[i] === x) return;
    this.counts[i] = x;
    this.redraw(i);
    if (this.pairOf[i] >= 0) this.repair(this.pairOf[i]);
  }

  setCounts(counts: ArrayLike<number>): void {
    for (let i = 0; i < counts.length; i++) this.setCount(i, counts[i]);
  }

  /** The current table (observed cells with the current counts). */
  currentTable(): CellTable {
    return {
      factors: this.table.factors,
      cells: this.table.cells.map((c, i) => ({ ...c, obs: { kind: 'binary', n: this.ns[i], x: this.counts[i] } as BinaryObservations })),
    };
  }

  /** Point value of a headline statistic of a group, optionally leaving pairs out. */
  point(group: string, kind: HeadlineKind, exclude?: ReadonlySet<number>): number {
    let sum = 0, count = 0;
    for (const j of this.groupPairs(group)) {
      if (exclude?.has(j)) continue;
      const p = this.layout.pairs[j];
      const pb = this.counts[p.baseIndex] / this.ns[p.baseIndex];
      const ps = this.counts[p.altIndex] / this.ns[p.altIndex];
      sum += kind === 'R' ? robustness2(pb, ps) : ps - pb;
      count++;
    }
    return this.transform(kind, sum / count);
  }

  /** Replicate values of a headline statistic (into a reused buffer: copy before the next call). */
  replicates(group: string, kind: HeadlineKind, exclude?: ReadonlySet<number>): Float64Array {
    const out = this.scratch;
    out.fill(0);
    let count = 0;
    for (const j of this.groupPairs(group)) {
      if (exclude?.has(j)) continue;
      const col = kind === 'R' ? this.pairR2[j] : this.pairShift[j];
      for (let r = 0; r < this.reps; r++) out[r] += col[r];
      count++;
    }
    for (let r = 0; r < this.reps; r++) out[r] = this.transform(kind, out[r] / count);
    return out;
  }

  interval(group: string, kind: HeadlineKind, exclude?: ReadonlySet<number>): Interval {
    const sorted = this.replicates(group, kind, exclude).slice().sort();
    const a = (1 - (this.settings.level ?? 0.95)) / 2;
    return { point: this.point(group, kind, exclude), lo: quantileSorted(sorted, a), hi: quantileSorted(sorted, 1 - a) };
  }

  /** The conservative transform of Same Game, Different Story §4.2, applied as the estimand applies it. */
  private transform(kind: HeadlineKind, raw: number): number {
    const a = this.settings.attenuation;
    return kind === 'R' ? 1 - a * (1 - raw) : a * raw;
  }

  private redraw(i: number): void {
    redrawCell({ kind: 'binary', n: this.ns[i], x: this.counts[i] }, this.settings.seed, this.ids[i], this.reps, this.cols[i], 0, 1);
  }

  private repair(j: number): void {
    const p = this.layout.pairs[j];
    const b = this.cols[p.baseIndex], s = this.cols[p.altIndex];
    const r2 = this.pairR2[j], d = this.pairShift[j];
    for (let r = 0; r < this.reps; r++) { r2[r] = robustness2(b[r], s[r]); d[r] = s[r] - b[r]; }
  }
}
