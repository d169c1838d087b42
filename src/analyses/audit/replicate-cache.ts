import { redrawCounts } from '../../stats/binomial.js';
import { extremeIndices, type StartSet } from '../../stats/quantile.js';
import type { Table3Column } from '../../stats/table3.js';

/**
 * Caches for the audit's replicate state (replicate-state.ts).
 *
 * DrawCache: a cell's column of redrawn counts depends only on (seed, cell id, n, count), so the
 * columns of counts seen before are kept (least recently used first out, within a byte budget):
 * the searches try a count and step back, and revisit the same few counts many times.
 *
 * pairCellTable: a Table 3 column's per-cell value of a pair's redrawn rates (R2: a column that declares `tabulate`)
 * depends only on the two redrawn counts, so for (n_base + 1)(n_alt + 1) ≤ CELL_TABLE_MAX entries it
 * is a lookup, computed once per (column, n_base, n_alt) with the very expression the bootstrap
 * evaluates (the column's `cell` of k · (1/n)), so the values are bit for bit those of a direct
 * evaluation.
 */

/** Bytes of cached columns kept per replicate state. */
export const DRAW_CACHE_BYTES = 64 * 2 ** 20;
/** Largest lookup table of a column's per-cell values, in entries (8 MiB): covers n ≤ 1023 in both cells. */
export const CELL_TABLE_MAX = 2 ** 20;

export class DrawCache {
  private readonly columns = new Map<number | string, Int32Array>();
  private readonly capacity: number;

  constructor(readonly seed: number, readonly reps: number, readonly cells: number) {
    this.capacity = Math.max(4, Math.floor(DRAW_CACHE_BYTES / (4 * Math.max(1, reps))));
  }

  /** Column of `reps` redrawn counts of cell `i` (id `id`) at count x of n. Never write into it. */
  column(i: number, id: string, n: number, x: number): Int32Array {
    // One number per (cell, count) while cells · (n + 1) stays exact in a double; a string above.
    const key = (n + 1) * this.cells <= Number.MAX_SAFE_INTEGER ? x * this.cells + i : `${i}:${x}`;
    const hit = this.columns.get(key);
    if (hit) {
      this.columns.delete(key);
      this.columns.set(key, hit);
      return hit;
    }
    const col = new Int32Array(this.reps);
    redrawCounts(n, x, this.seed, id, this.reps, col);
    this.columns.set(key, col);
    if (this.columns.size > this.capacity) this.columns.delete(this.columns.keys().next().value!);
    return col;
  }
}

/** Each column's tables, by (n_base, n_alt). */
const tables = new WeakMap<Table3Column, Map<string, Float64Array>>();
/** Tables kept at once per column (inputs with many different n per pair rebuild the oldest). */
const MAX_TABLES = 16;

/** A column's cell(k_b/n_b, k_s/n_s) for every pair of counts, indexed k_b·(n_s + 1) + k_s; undefined when too large or n = 0. */
export function pairCellTable(column: Table3Column, nb: number, ns: number): Float64Array | undefined {
  if (nb === 0 || ns === 0 || (nb + 1) * (ns + 1) > CELL_TABLE_MAX) return undefined;
  let own = tables.get(column);
  if (!own) { own = new Map(); tables.set(column, own); }
  const key = `${nb}:${ns}`;
  let t = own.get(key);
  if (!t) {
    t = new Float64Array((nb + 1) * (ns + 1));
    const ib = 1 / nb, is = 1 / ns;
    for (let kb = 0; kb <= nb; kb++) for (let ks = 0; ks <= ns; ks++) t[kb * (ns + 1) + ks] = column.cell(kb * ib, ks * is);
    if (own.size >= MAX_TABLES) own.delete(own.keys().next().value!);
    own.set(key, t);
  }
  return t;
}

/**
 * Pair columns kept per pair: the current one and the recent ones. One step of a search tries up
 * to six tables per pair (either cell, or both, up or down) and steps back each time; with eight
 * slots the next step finds them all again unless the pair itself moved.
 */
const PAIR_SLOTS = 8;

const NONE = new Float64Array(0);

/** One (x_base, x_alt) of a pair: its cells' redrawn counts and, per audited column, its replicate values (`ready` once computed). */
interface PairSlot { xb: number; xs: number; stamp: number; kb: Int32Array; ks: Int32Array; values: Float64Array[]; ready: Uint8Array }

/**
 * A pair's replicate columns of each audited Table 3 column (R2, the shift, …), for the pair's
 * current counts (x_base, x_alt). `ensure` makes them current: a slot already holding (x_base,
 * x_alt) is reused, otherwise the least recently used slot is refilled from the two cells' columns
 * of redrawn counts. Each column is computed when first read — the column's cell(k_b·(1/n_b),
 * k_s·(1/n_s)), by table lookup for a column that declares `tabulate` (R2) where the table fits —
 * so a search on the shift never pays for R2.
 */
export class PairColumns {
  private readonly slots: PairSlot[] = [];
  private current: PairSlot | undefined;
  /** The current slot's contents (stampFor its counts): a sum over the pair with another stamp is stale. */
  stamp = 0;

  constructor(readonly reps: number, readonly nb: number, readonly ns: number, readonly columns: readonly Table3Column[]) {}

  ensure(xb: number, xs: number, base: () => Int32Array, alt: () => Int32Array): void {
    const slots = this.slots;
    if (slots.length > 0 && slots[0].xb === xb && slots[0].xs === xs) return;
    let at = slots.findIndex((x) => x.xb === xb && x.xs === xs);
    if (at < 0) {
      const slot = slots.length < PAIR_SLOTS
        ? { xb, xs, stamp: 0, kb: base(), ks: alt(), values: this.columns.map(() => NONE), ready: new Uint8Array(this.columns.length) }
        : slots[slots.length - 1];
      if (slots.length < PAIR_SLOTS) slots.push(slot);
      slot.xb = xb; slot.xs = xs; slot.kb = base(); slot.ks = alt();
      slot.ready.fill(0); slot.stamp = this.stampFor(xb, xs);
      at = slots.indexOf(slot);
    }
    const slot = slots[at];
    slots.splice(at, 1);
    slots.unshift(slot);
    this.current = slot;
    this.stamp = slot.stamp;
  }

  /**
   * A number that identifies the columns' contents: they are a function of (x_base, x_alt) alone,
   * so the same counts give the same stamp even after their slot was refilled, and a sum over the
   * pair is not redone when a search steps back to counts it summed before.
   */
  stampFor(xb: number, xs: number): number {
    if ((this.nb + 1) * (this.ns + 1) <= Number.MAX_SAFE_INTEGER) return xb * (this.ns + 1) + xs;
    const key = `${xb}:${xs}`; // counts too large to number as one integer: numbered as they come
    let v = this.numbered.get(key);
    if (v === undefined) { v = this.numbered.size; this.numbered.set(key, v); }
    return v;
  }

  private readonly numbered = new Map<string, number>();

  /** The current replicate values of audited column c (its index in `columns`; call `ensure` first). */
  column(c: number): Float64Array {
    const slot = this.current!;
    return slot.ready[c] === 1 ? slot.values[c] : this.fill(slot, c);
  }

  private fill(slot: PairSlot, c: number): Float64Array {
    const { nb, ns, reps } = this;
    const kb = slot.kb, ks = slot.ks;
    if (slot.values[c].length !== reps) slot.values[c] = new Float64Array(reps); // allocated when first needed
    const out = slot.values[c];
    const table = this.columns[c].audit?.tabulate ? pairCellTable(this.columns[c], nb, ns) : undefined;
    if (table) {
      const w = ns + 1;
      for (let r = 0; r < reps; r++) out[r] = table[kb[r] * w + ks[r]];
    } else {
      const cell = this.columns[c].cell;
      const ib = nb === 0 ? NaN : 1 / nb, is = ns === 0 ? NaN : 1 / ns;
      for (let r = 0; r < reps; r++) out[r] = cell(kb[r] * ib, ks[r] * is);
    }
    slot.ready[c] = 1;
    return out;
  }
}

/** Largest prefix-sum store of one group statistic, in replicate values (32 MiB). */
export const PREFIX_MAX_VALUES = 4 * 2 ** 20;

/**
 * Running sums over a group's pair columns in the estimand's order: prefix[t][r] = (((0 + c_0[r]) +
 * c_1[r]) + …) + c_t[r], the very additions of a plain sum, so the total is bit for bit the same.
 * When pair t's columns change, only prefix t … m−1 are redone (on average half the sum).
 */
export class PrefixSums {
  private readonly prefix: Float64Array[];
  private readonly seen: number[];
  /** A copy of each column as last summed (what scan mode subtracts when one column changes). */
  private readonly used: Float64Array[];

  constructor(readonly m: number, readonly reps: number) {
    this.prefix = Array.from({ length: m }, () => new Float64Array(reps));
    this.used = Array.from({ length: m }, () => new Float64Array(reps));
    this.seen = new Array<number>(m).fill(-1);
  }

  /** The sum over all m columns; `cols[t]` with `stamps[t]` identifies column t's current contents. */
  total(cols: readonly Float64Array[], stamps: readonly number[]): Float64Array {
    const { m, reps, prefix, seen } = this;
    let t = 0;
    while (t < m && seen[t] === stamps[t]) t++;
    if (t < m) this.version++;
    for (; t < m; t++) {
      const out = prefix[t], c = cols[t];
      if (t === 0) for (let r = 0; r < reps; r++) out[r] = 0 + c[r];
      else { const prev = prefix[t - 1]; for (let r = 0; r < reps; r++) out[r] = prev[r] + c[r]; }
      if (seen[t] !== stamps[t]) { this.used[t].set(c); seen[t] = stamps[t]; }
    }
    return prefix[m - 1];
  }

  /** The stamp of column t in the last computed sum. */
  stampAt(t: number): number { return this.seen[t]; }

  private version = 0;
  private readonly starts = new Map<string, { version: number; set: StartSet }>();

  /** Indices of the K smallest (low) or largest values of the last sum, for quantileOfUpdate to read first. */
  start(low: boolean, K: number): StartSet {
    const key = `${low}:${K}`;
    const hit = this.starts.get(key);
    if (hit && hit.version === this.version) return hit.set;
    const set = extremeIndices(this.last(), low, K);
    this.starts.set(key, { version: this.version, set });
    return set;
  }

  /** Column t as it was in the last computed sum. */
  usedColumn(t: number): Float64Array { return this.used[t]; }

  /** The last computed sum (valid for the stamps `stampAt` reports). */
  last(): Float64Array { return this.prefix[this.m - 1]; }
}
