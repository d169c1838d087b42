import type { CountColumn } from '../core/cells.js';
import type { RandomSource } from './rng.js';

/**
 * Clusters observed on several columns at once (the rounds, reactions and totals of one match):
 * cluster j holds sizes[c][j] decisions of column c whose outcomes sum to sums[c][j]. One
 * replicate draws m whole clusters with replacement — the same clusters for every column — and
 * each column's rate is Σ drawn sums / Σ drawn sizes (NaN where no drawn cluster has a decision of
 * that column). A clustered cell of the cell table is the one-column case (`redrawCell`).
 */
export interface ClusterColumns {
  readonly sizes: readonly CountColumn[];
  readonly sums: readonly CountColumn[];
}

/** Writes the next `count` replicates: rate of column c of replicate r at out[r · stride + offset + c]. */
export type ColumnsDrawer = (count: number, out: Float64Array, offset: number, stride: number) => void;

/** Where one column's drawn total is read from: a constant (m · value), a packed integer field, or a float lane. */
type Source = { kind: 'const'; total: number } | { kind: 'field'; lane: number; shift: number; bits: number } | { kind: 'lane'; lane: number };

/** Integer fields share a 52-bit lane while their largest possible totals fit (sums stay exact below 2^53). */
const LANE_BITS = 52;

function isConstant(v: CountColumn): boolean {
  for (let j = 1; j < v.length; j++) if (v[j] !== v[0]) return false;
  return true;
}

/** Largest value when every value is a non-negative integer, else −1. */
function integerMax(v: CountColumn): number {
  let max = 0;
  for (let j = 0; j < v.length; j++) {
    const x = v[j];
    if (!(x >= 0) || !Number.isInteger(x)) return -1;
    if (x > max) max = x;
  }
  return max;
}

/**
 * The drawn totals as few additions per drawn cluster as the data allow: an integer column equal in
 * every cluster totals m · value (m clusters are drawn); non-negative integer columns are packed side by
 * side into the bits of one double (each field wide enough for m times its largest value, so no
 * field carries into the next and every total is exact); other columns keep a lane of their own.
 * The totals, and so the rates, are those of adding the drawn clusters' values one by one.
 */
function plan(values: readonly CountColumn[], m: number): { sources: Source[]; lanes: number; table: Float64Array } {
  const sources: Source[] = [];
  const laneOf: { column: number; scale: number }[][] = [];
  let open = -1, used = LANE_BITS;
  for (let c = 0; c < values.length; c++) {
    const v = values[c];
    const max = integerMax(v);
    if (max >= 0 && isConstant(v)) { sources.push({ kind: 'const', total: m * v[0] }); continue; }
    const bits = max < 0 ? Infinity : Math.ceil(Math.log2(m * max + 1));
    if (bits > LANE_BITS) { laneOf.push([{ column: c, scale: 1 }]); sources.push({ kind: 'lane', lane: laneOf.length - 1 }); continue; }
    if (used + bits > LANE_BITS) { laneOf.push([]); open = laneOf.length - 1; used = 0; }
    laneOf[open].push({ column: c, scale: 2 ** used });
    sources.push({ kind: 'field', lane: open, shift: 2 ** used, bits: 2 ** bits });
    used += bits;
  }
  const lanes = laneOf.length;
  const table = new Float64Array(m * lanes);
  for (let q = 0; q < lanes; q++) {
    for (const { column, scale } of laneOf[q]) for (let j = 0; j < m; j++) table[j * lanes + q] += values[column][j] * scale;
  }
  return { sources, lanes, table };
}

function total(s: Source, acc: Float64Array): number {
  if (s.kind === 'const') return s.total;
  if (s.kind === 'lane') return acc[s.lane];
  return Math.floor(acc[s.lane] / s.shift) % s.bits;
}

/**
 * A uniform integer in [0, m), m < 2^21, from 32-bit words: Lemire's multiply-and-reject (exactly
 * uniform; a second word is needed with probability below m / 2^32).
 */
export function uniformIndex(rng: RandomSource, m: number): number {
  return lemire(() => rng.nextUint32(), m);
}

const TWO32 = 4294967296;
/** 2^−32: a product by it is exact (a power of two), and cheaper than a division by 2^32. */
const INV32 = 1 / TWO32;

function lemire(word: () => number, m: number): number {
  let x = word() * m;
  let hi = Math.floor(x / TWO32);
  if (x - hi * TWO32 < m) {
    const threshold = (TWO32 - m) % m;
    while (x - hi * TWO32 < threshold) { x = word() * m; hi = Math.floor(x / TWO32); }
  }
  return hi;
}

/** Words per refill of a drawer's buffer. */
const WORDS = 4096;

/** Lanes per pass: one pass over the drawn clusters adds four lanes in registers. */
const GROUP = 4;

/** Every lane's drawn total, in `acc`, over the clusters of `drawn` (indices times GROUP into `grouped`). */
function addGroups(grouped: Float64Array, drawn: Int32Array, groups: number, acc: Float64Array): void {
  const m = drawn.length;
  for (let g = 0; g < groups; g++) {
    const base = g * m * GROUP;
    let a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (let i = 0; i < m; i++) {
      const o = base + drawn[i];
      a0 += grouped[o]; a1 += grouped[o + 1]; a2 += grouped[o + 2]; a3 += grouped[o + 3];
    }
    acc[g * GROUP] = a0; acc[g * GROUP + 1] = a1; acc[g * GROUP + 2] = a2; acc[g * GROUP + 3] = a3;
  }
}

/**
 * The joint redraw of a set of cluster columns from one stream: m cluster indices per replicate
 * (`uniformIndex`), then every column's total over those clusters, so a one-column set draws as
 * the clustered cells of the cell table do (it is their redraw).
 *
 * The stream's words are read from a buffer filled in bulk (rng.fillUint32) and turned into
 * indices by Lemire's method inline: the words and indices are those of calling uniformIndex one
 * by one. When every total lives in one lane (a clustered cell whose sizes are constant or share
 * the sums' lane, the usual case) each index is added as it is drawn; otherwise the indices are
 * kept and the lanes added four at a time. Either way each lane adds the drawn clusters in order.
 */
export function clusterColumnsDrawer(cols: ClusterColumns, rng: RandomSource): ColumnsDrawer {
  const width = cols.sizes.length;
  const m = width ? cols.sizes[0].length : 0;
  if (m === 0) return (count, out, offset, stride) => { for (let r = 0; r < count; r++) for (let c = 0; c < width; c++) out[r * stride + offset + c] = NaN; };
  if (m >= 2 ** 21) throw new RangeError(`too many clusters in one cell: ${m}`);
  const values: CountColumn[] = [];
  for (let c = 0; c < width; c++) values.push(cols.sums[c], cols.sizes[c]);
  const { sources, lanes, table } = plan(values, m);
  const single = lanes === 1;
  // Lanes in groups of four, group-major: group g of cluster j at grouped[(g · m + j) · 4].
  const groups = Math.ceil(lanes / GROUP);
  const grouped = new Float64Array(single ? 0 : groups * m * GROUP);
  if (!single) for (let j = 0; j < m; j++) for (let q = 0; q < lanes;
    q++) grouped[(Math.floor(q / GROUP) * m + j) * GROUP + (q % GROUP)] = table[j * lanes + q];
  const acc = new Float64Array(Math.max(1, groups * GROUP));
  const drawn = new Int32Array(single ? 0 : m);
  const words = new Uint32Array(WORDS);
  const threshold = (TWO32 - m) % m;
  let pos = WORDS;
  return (count, out, offset, stride) => {
    let p = pos;
    for (let r = 0; r < count; r++) {
      let a = 0;
      for (let i = 0; i < m; i++) {
        if (p === WORDS) { rng.fillUint32(words); p = 0; }
        let x = words[p++] * m;
        let hi = Math.floor(x * INV32);
        while (x - hi * TWO32 < threshold) {
          if (p === WORDS) { rng.fillUint32(words); p = 0; }
          x = words[p++] * m;
          hi = Math.floor(x * INV32);
        }
        if (single) a += table[hi]; else drawn[i] = hi * GROUP;
      }
      if (single) acc[0] = a; else addGroups(grouped, drawn, groups, acc);
      const base = r * stride + offset;
      for (let c = 0; c < width; c++) out[base + c] = total(sources[2 * c], acc) / total(sources[2 * c + 1], acc);
    }
    pos = p;
  };
}
