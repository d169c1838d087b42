import type { BinaryObservations, CellTable } from '../../core/cells.js';
import { cellId } from '../../core/cells.js';
import { POOLED } from '../../core/names.js';
import type { TwoFramingLayout } from '../two-framing/index.js';
import type { Interval } from '../../stats/bootstrap.js';
import { quantileOfUpdate, quantilesUnsorted, updateQuantileSide } from '../../stats/quantile.js';
import { auditedColumns, table3Column, type Table3Column } from '../../stats/table3.js';
import { DrawCache, PairColumns, PREFIX_MAX_VALUES, PrefixSums } from './replicate-cache.js';

/**
 * A headline statistic of Same Game, Different Story Table 3: the `column` of a Table 3 column
 * that declares an audit conclusion (stats/table3.ts; conservative R and action shift built in).
 */
export type HeadlineKind = string;

export interface ReplicateSettings {
  readonly seed: number;
  readonly reps: number;
  readonly attenuation: number;
  /** Interval level, default 0.95. */
  readonly level?: number;
  /** The audited columns by name (default: every column that declares an audit conclusion). */
  readonly columns?: readonly string[];
}

/**
 * The two-framing bootstrap of the two-framing analysis, kept open so that single counts can be
 * changed and the headline statistics re-read cheaply — what the reading-error, tipping-point
 * and influence searches need thousands of times.
 *
 * It reproduces the engine bit for bit: a cell's replicate counts come from the same (seed, cell
 * id) stream and sampler as `redrawCell`'s; pair and group values are summed in the estimand's
 * order; intervals are the same percentiles (by selection, which gives the same order statistics
 * as sorting). Because the sampler is an inverse CDF on the cell's fixed stream, a changed count
 * reuses the same uniforms (common random numbers), which keeps comparisons between
 * neighbouring configurations free of fresh Monte Carlo noise.
 *
 * Dependency structure, and what a change costs: a cell's count → its column of redrawn counts
 * (one column, from a cache of the columns of counts seen before: the searches step away and
 * back) → its pair's columns of each audited Table 3 column (R2, the shift, …: the column's
 * per-cell formula, by table lookup on the two redrawn counts — a count takes at most n + 1 values,
 * so the values of redrawn rates are precomputed per (n_base, n_alt)) → the model's and Pooled's
 * statistics (the column's conservative transform of the pairs' mean), re-summed only when read.
 */
export class ReplicateState {
  readonly reps: number;
  readonly counts: Int32Array;
  readonly ns: Int32Array;
  readonly ids: readonly string[];
  /** Each pair's R2 and shift columns at its cells' current counts, brought up to date when read. */
  private readonly pairCols: PairColumns[];
  private readonly pairOf: Int32Array;
  private readonly groupPairsMap = new Map<string, number[]>();
  private readonly scratch: Float64Array;
  private readonly cache: DrawCache;
  /** Running sums per (kind, group) over the group's pairs (see PrefixSums). */
  private readonly prefixes = new Map<string, PrefixSums>();
  /** The audited Table 3 columns, and each one's index by name. */
  readonly columns: readonly Table3Column[];
  private readonly index = new Map<string, number>();

  constructor(readonly table: CellTable, readonly layout: TwoFramingLayout, readonly settings: ReplicateSettings) {
    const k = table.cells.length;
    this.reps = settings.reps;
    this.counts = new Int32Array(k);
    this.ns = new Int32Array(k);
    this.ids = table.cells.map((c) => cellId(table.factors, c.key));
    this.cache = new DrawCache(settings.seed, this.reps, k);
    this.columns = settings.columns ? settings.columns.map(table3Column) : auditedColumns();
    this.columns.forEach((c, i) => this.index.set(c.column, i));
    this.pairOf = new Int32Array(k).fill(-1);
    table.cells.forEach((c, i) => {
      if (c.obs.kind !== 'binary') throw new Error(`audit needs binary cells; ${this.ids[i]} holds per-trial probabilities`);
      this.counts[i] = c.obs.x;
      this.ns[i] = c.obs.n;
    });
    this.pairCols = layout.pairs.map((p, j) => {
      this.pairOf[p.baseIndex] = j; this.pairOf[p.altIndex] = j;
      return new PairColumns(this.reps, this.ns[p.baseIndex], this.ns[p.altIndex], this.columns);
    });
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

  /** The audited column named `kind` (throws for a column the audit does not search). */
  column(kind: HeadlineKind): Table3Column {
    return this.columns[this.indexOf(kind)];
  }

  private indexOf(kind: HeadlineKind): number {
    const c = this.index.get(kind);
    if (c === undefined) throw new Error(`the audit searches no Table 3 column ${kind}`);
    return c;
  }

  /** Point value of a headline statistic of a group, optionally leaving pairs out. */
  point(group: string, kind: HeadlineKind, exclude?: ReadonlySet<number>): number {
    const col = this.column(kind);
    let sum = 0, count = 0;
    for (const j of this.groupPairs(group)) {
      if (exclude?.has(j)) continue;
      const p = this.layout.pairs[j];
      sum += col.cell(this.counts[p.baseIndex] / this.ns[p.baseIndex], this.counts[p.altIndex] / this.ns[p.altIndex]);
      count++;
    }
    return col.conservative(sum / count, this.settings.attenuation);
  }

  /** Replicate values of a headline statistic (into a reused buffer: copy before the next call). */
  replicates(group: string, kind: HeadlineKind, exclude?: ReadonlySet<number>): Float64Array {
    const out = this.scratch;
    const c = this.indexOf(kind);
    const cols: Float64Array[] = [];
    const stamps: number[] = [];
    for (const j of this.groupPairs(group)) {
      if (exclude?.has(j)) continue;
      const pc = this.pair(j);
      cols.push(pc.column(c));
      stamps.push(pc.stamp);
    }
    const count = cols.length;
    let sum = out;
    if (exclude === undefined && count * this.reps <= PREFIX_MAX_VALUES) {
      const key = prefixKey(kind, group);
      let ps = this.prefixes.get(key);
      if (!ps) { ps = new PrefixSums(count, this.reps); this.prefixes.set(key, ps); }
      sum = ps.total(cols, stamps);
    } else {
      sumColumns(cols, out, this.reps);
    }
    const a = this.settings.attenuation;
    const conservative = this.columns[c].conservative;
    for (let r = 0; r < this.reps; r++) out[r] = conservative(sum[r] / count, a);
    return out;
  }

  /** The percentile interval; the replicate buffer is reordered by the selection. */
  interval(group: string, kind: HeadlineKind, exclude?: ReadonlySet<number>): Interval {
    const a = (1 - (this.settings.level ?? 0.95)) / 2;
    const [lo, hi] = quantilesUnsorted(this.replicates(group, kind, exclude), [a, 1 - a]);
    return { point: this.point(group, kind, exclude), lo, hi };
  }

  /** One end of the percentile interval (what a search reads): `interval(...)[which]`, with one selection instead of two. */
  endpoint(group: string, kind: HeadlineKind, which: 'lo' | 'hi'): number {
    const a = (1 - (this.settings.level ?? 0.95)) / 2;
    const q = which === 'lo' ? a : 1 - a;
    if (this.scanning) {
      const v = this.scanQuantile(group, kind, q);
      if (v !== undefined) return v;
    }
    return quantilesUnsorted(this.replicates(group, kind), [q])[0];
  }

  /**
   * Run `f` in scan mode: an endpoint read while the group's pairs differ from the last exactly
   * computed sum in one pair column is computed as (exact total − old column + new column), a
   * one-pass order statistic (quantileOfUpdate) instead of a re-summation in the estimand's order
   * and a selection. The value can differ from the exact one by a few units in the last place: a
   * search ranks candidate moves in scan mode and re-reads the chosen one outside it.
   */
  scan<T>(f: () => T): T {
    const was = this.scanning;
    this.scanning = true;
    try { return f(); } finally { this.scanning = was; }
  }

  private scanning = false;

  private scanQuantile(group: string, kind: HeadlineKind, q: number): number | undefined {
    const ps = this.prefixes.get(prefixKey(kind, group));
    if (!ps) return undefined;
    const pairs = this.groupPairs(group);
    let changed = -1;
    for (let t = 0; t < pairs.length; t++) {
      const j = pairs[t], p = this.layout.pairs[j];
      if (this.pairCols[j].stampFor(this.counts[p.baseIndex], this.counts[p.altIndex]) === ps.stampAt(t)) continue;
      if (changed >= 0) return undefined;
      changed = t;
    }
    if (changed < 0) return undefined;
    const count = pairs.length;
    const { low, K } = updateQuantileSide(this.reps, q);
    const c = this.indexOf(kind), a = this.settings.attenuation, conservative = this.columns[c].conservative;
    return quantileOfUpdate(ps.last(), ps.usedColumn(changed), this.pair(pairs[changed]).column(c), q, (x) => conservative(x / count, a), ps.start(low, K));
  }

  /** Pair j's columns at the current counts (recomputed, or taken from its small cache, when a count moved). */
  private pair(j: number): PairColumns {
    const pc = this.pairCols[j];
    const { baseIndex: b, altIndex: s } = this.layout.pairs[j];
    pc.ensure(this.counts[b], this.counts[s], () => this.cache.column(b, this.ids[b], this.ns[b], this.counts[b]),
      () => this.cache.column(s, this.ids[s], this.ns[s], this.counts[s]));
    return pc;
  }
}

/** The running sums of one statistic of one group (the same key in replicates() and scan mode). */
const prefixKey = (kind: HeadlineKind, group: string) => `${kind}\u0000${group}`;

/**
 * out[r] = ((0 + c0[r]) + c1[r]) + … in column order — the estimand's summation order, so the sums
 * are bit for bit the same — four columns per pass to touch `out` a quarter as often.
 */
function sumColumns(cols: readonly Float64Array[], out: Float64Array, reps: number): void {
  out.fill(0);
  let c = 0;
  for (; c + 4 <= cols.length; c += 4) {
    const a = cols[c], b = cols[c + 1], d = cols[c + 2], e = cols[c + 3];
    for (let r = 0; r < reps; r++) out[r] = (((out[r] + a[r]) + b[r]) + d[r]) + e[r];
  }
  for (; c < cols.length; c++) {
    const a = cols[c];
    for (let r = 0; r < reps; r++) out[r] += a[r];
  }
}
