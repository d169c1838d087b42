import { quantileSorted as d3QuantileSorted } from 'd3-array';

/**
 * Quantile of an ascending-sorted sample with linear interpolation between order statistics:
 * h = (N−1)·q, the R-7 definition used by numpy's default and d3.quantile (computed by
 * d3-array's quantileSorted; this wrapper adds the level check and NaN for an empty sample).
 * @example quantileSorted([1, 2, 3, 4], 0.5) // 2.5
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile level out of [0,1]: ${q}`);
  if (sorted.length === 0) return NaN;
  return d3QuantileSorted(sorted as unknown as number[], q) as number;
}

/**
 * Rearrange `a` in place so that a[k] is the k-th smallest value, everything before it ≤ a[k]
 * and everything after ≥ a[k]: Floyd–Rivest selection (CACM 18:3, 1975) with Hoare partitioning,
 * the scheme of d3-array's quickselect, which stays linear on the many ties of bootstrap
 * replicates (lattice-valued statistics, collapsed degenerate cells). `a` must hold no NaN.
 * Hand-written rather than d3-array's quickselect because that one calls a comparator per
 * comparison: on 10,000 replicates it is several times slower (bench/quantile.ts measures both).
 */
export function selectInPlace(a: Float64Array, k: number, left = 0, right = a.length - 1): void {
  while (right > left) {
    if (right - left > 600) {
      const n = right - left + 1;
      const m = k - left + 1;
      const z = Math.log(n);
      const s = 0.5 * Math.exp((2 * z) / 3);
      const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1);
      selectInPlace(a, k, Math.max(left, Math.floor(k - (m * s) / n + sd)), Math.min(right, Math.floor(k + ((n - m) * s) / n + sd)));
    }
    const t = a[k];
    let i = left;
    let j = right;
    swap(a, left, k);
    if (a[right] > t) swap(a, left, right);
    while (i < j) {
      swap(a, i, j);
      ++i; --j;
      while (a[i] < t) ++i;
      while (a[j] > t) --j;
    }
    if (a[left] === t) swap(a, left, j);
    else { ++j; swap(a, j, right); }
    if (j <= k) left = j + 1;
    if (k <= j) right = j - 1;
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i]; a[i] = a[j]; a[j] = t;
}

/**
 * Quantiles (R-7, as quantileSorted) of an unsorted sample, by selection rather than sorting.
 * `scratch` is reordered. A sample holding NaN (a statistic undefined in some replicate) has NaN
 * quantiles.
 */
export function quantilesUnsorted(scratch: Float64Array, qs: readonly number[]): number[] {
  for (const q of qs) if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile level out of [0,1]: ${q}`);
  const out = new Array<number>(qs.length).fill(NaN);
  const n = scratch.length;
  if (n === 0 || hasNaN(scratch)) return out;
  for (let j = 0; j < qs.length; j++) out[j] = selectQuantile(scratch, qs[j]);
  return out;
}

function hasNaN(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== a[i]) return true;
  return false;
}

/**
 * One R-7 quantile of a non-empty, NaN-free sample by selection (`a` is reordered). A plain
 * function without closures: it runs once per evaluation of the audit's searches, and V8 keeps
 * it fast only in this form (a closure per call made it several times slower).
 */
function selectQuantile(a: Float64Array, q: number): number {
  const n = a.length;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  selectInPlace(a, lo);
  const x = a[lo];
  if (lo >= n - 1 || h === lo) return x;
  // the next order statistic is the smallest value at or after position lo + 1
  let y = a[lo + 1];
  for (let i = lo + 2; i < n; i++) if (a[i] < y) y = a[i];
  return x + (h - lo) * (y - x);
}

/**
 * Quantiles (R-7, as quantileSorted) of levels that all lie in one tail of an unsorted sample, by
 * selection (`scratch` is reordered): the order statistics are selected from the median outwards —
 * the first over the whole sample, each further one only among the few values beyond the last
 * (they are already partitioned off) — so a band of levels costs about one selection, where
 * quantilesUnsorted selects and scans the whole sample for each level. Levels on both sides of
 * the median are read by quantilesUnsorted. NaN anywhere gives NaN quantiles.
 */
export function tailQuantiles(scratch: Float64Array, qs: readonly number[]): number[] {
  const low = qs.every((q) => q <= 0.5);
  if (!low && !qs.every((q) => q >= 0.5)) return quantilesUnsorted(scratch, qs);
  for (const q of qs) if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile level out of [0,1]: ${q}`);
  const n = scratch.length;
  if (n === 0 || hasNaN(scratch)) return qs.map(() => NaN);
  const ranks = new Set<number>();
  for (const q of qs) {
    const h = (n - 1) * q, lo = Math.floor(h);
    ranks.add(lo);
    if (lo < n - 1 && h !== lo) ranks.add(lo + 1);
  }
  let left = 0, right = n - 1;
  for (const k of [...ranks].sort((a, b) => (low ? b - a : a - b))) {
    selectInPlace(scratch, k, left, right);
    if (low) right = k - 1; else left = k + 1;
  }
  return qs.map((q) => {
    const h = (n - 1) * q, lo = Math.floor(h);
    const x = scratch[lo];
    return lo >= n - 1 || h === lo ? x : x + (h - lo) * (scratch[lo + 1] - x);
  });
}

/** Which end quantileOfUpdate reads quantile q of n values from, and how many values it keeps there. */
export function updateQuantileSide(n: number, q: number): { readonly low: boolean; readonly K: number } {
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const need = lo < n - 1 && h !== lo;
  const low = lo < n / 2;
  return { low, K: low ? lo + (need ? 2 : 1) : n - lo };
}

/**
 * Indices to read first (K of them, see updateQuantileSide) and a mark of each: values likely to
 * be among the K kept, so that the heap starts near its final contents and the pass over the rest
 * is one comparison per value. Any K distinct indices give the same result.
 */
export interface StartSet { readonly indices: Int32Array; readonly taken: Uint8Array }

/** The K indices of the smallest (low) or largest values of `a`: a StartSet for values near `a`. */
export function extremeIndices(a: Float64Array, low: boolean, K: number): StartSet {
  const n = a.length;
  if (hasNaN(a)) return firstIndices(n, K); // selection needs NaN-free values; any K indices will do
  const copy = Float64Array.from(a);
  const k = low ? K - 1 : n - K;
  selectInPlace(copy, k);
  const t = copy[k];
  const indices = new Int32Array(K), taken = new Uint8Array(n);
  let m = 0;
  for (let r = 0; r < n && m < K; r++) if (low ? a[r] < t : a[r] > t) { indices[m++] = r; taken[r] = 1; }
  for (let r = 0; r < n && m < K; r++) if (a[r] === t && !taken[r]) { indices[m++] = r; taken[r] = 1; }
  return { indices, taken };
}

/**
 * The R-7 quantile q of f(x_r), x_r = base[r] − sub[r] + add[r] (r < base.length), for a weakly
 * increasing f: the two order statistics the quantile reads are found in one pass that keeps the
 * smallest (or, above the median, the largest) few values in a heap, and f is applied to those
 * two only (a weakly increasing f maps the k-th smallest x to the k-th smallest f(x)). NaN when
 * some x_r is NaN. What the audit's search reads for a candidate table that changes one column of
 * a sum: one pass over three columns instead of re-summing the group and selecting. `start`
 * (indices of the extremes of a nearby sum) only makes the pass cheaper.
 */
export function quantileOfUpdate(base: Float64Array, sub: Float64Array, add: Float64Array, q: number, f: (x: number) => number,
  start?: StartSet): number {
  const n = base.length;
  if (n === 0) return NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const need = lo < n - 1 && h !== lo; // the next order statistic is read too
  // Ranks lo (and lo + 1) from the nearer end: the K smallest of x, or the K smallest of −x.
  const { low, K } = updateQuantileSide(n, q);
  const s = low ? 1 : -1;
  const heap = new Float64Array(K);
  const first = start !== undefined && start.indices.length === K && start.taken.length === n ? start : firstIndices(n, K);
  for (let j = 0; j < K; j++) {
    const r = first.indices[j];
    const x = s * (base[r] - sub[r] + add[r]);
    if (x !== x) return NaN;
    heap[j] = x;
    siftUp(heap, j);
  }
  if (!keepSmallest(heap, K, s, base, sub, add, first.taken)) return NaN;
  // heap[0] is the K-th smallest; the (K−1)-th is the larger child of the root.
  const kth = s * heap[0];
  const next = K > 2 ? Math.max(heap[1], heap[2]) : K === 2 ? heap[1] : heap[0];
  const a = low ? (need ? s * next : kth) : kth; // rank lo
  const b = low ? kth : s * next; // rank lo + 1
  const x0 = f(a);
  if (!need) return x0;
  const y = f(b);
  return x0 + (h - lo) * (y - x0);
}

/** The first K indices, as a StartSet. */
function firstIndices(n: number, K: number): StartSet {
  const taken = new Uint8Array(n);
  taken.fill(1, 0, K);
  return { indices: Int32Array.from({ length: K }, (_, j) => j), taken };
}

/**
 * The values s·(base − sub + add) not yet taken through a max-heap of the K smallest; false on
 * NaN. The common case — a value above the heap's top — costs three loads, an add, a subtract, a
 * multiply and one comparison (NaN fails it and is caught by the next).
 */
function keepSmallest(heap: Float64Array, K: number, s: number, base: Float64Array, sub: Float64Array, add: Float64Array, taken: Uint8Array): boolean {
  const n = base.length;
  let top = heap[0];
  for (let r = 0; r < n; r++) {
    const x = s * (base[r] - sub[r] + add[r]);
    if (x >= top || taken[r] === 1) continue;
    if (x !== x) return false;
    heap[0] = x; siftDown(heap, K); top = heap[0];
  }
  return true;
}

/** Max-heap in a[0..]: move a[i] up to its place. */
function siftUp(a: Float64Array, i: number): void {
  const v = a[i];
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (a[p] >= v) break;
    a[i] = a[p]; i = p;
  }
  a[i] = v;
}

/** Max-heap of size k: move a[0] down to its place. */
function siftDown(a: Float64Array, k: number): void {
  const v = a[0];
  let i = 0;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= k) break;
    if (c + 1 < k && a[c + 1] > a[c]) c++;
    if (a[c] <= v) break;
    a[i] = a[c]; i = c;
  }
  a[i] = v;
}
