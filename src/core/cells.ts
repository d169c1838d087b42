/**
 * The common currency of samegame (docs/architecture.md): a table of cells keyed by factor levels, each
 * holding its observations. A count read off a figure and a count of stored trials are the same
 * thing here, so every estimand works on reconstructed and direct-run data alike.
 */

/** x cooperations (or first actions) out of n valid binary trials. */
export interface BinaryObservations {
  readonly kind: 'binary';
  readonly n: number;
  readonly x: number;
}

/** One probability per trial (first-token scoring): the cell's rate is their mean. */
export interface ProbabilityObservations {
  readonly kind: 'prob';
  readonly values: Float64Array;
}

/**
 * Decisions that are not independent (rounds of one repeated game, several decisions of one
 * conversation), grouped by cluster: cluster j holds sizes[j] decisions whose outcomes (0/1 or
 * probabilities) sum to sums[j]. The cell's rate is Σ sums / Σ sizes, the mean over its decisions;
 * the bootstrap resamples whole clusters (docs/methods.md, "Clustered bootstrap").
 */
export interface ClusteredObservations {
  readonly kind: 'clustered';
  readonly sizes: Float64Array;
  readonly sums: Float64Array;
  /**
   * Each cluster's id (parallel to sizes), where the source names them: cells whose ids meet were
   * played in the same matches (both framings of a paired design), which the intervals pair.
   */
  readonly ids?: readonly string[];
}

/** Per-cluster values of a column: doubles, or whole counts in the narrowest unsigned integers that hold them. */
export type CountColumn = Float64Array | Uint8Array | Uint16Array | Uint32Array;

export type Observations = BinaryObservations | ProbabilityObservations | ClusteredObservations;

function total(v: Float64Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i];
  return s;
}

export interface Cell {
  /** Factor levels, e.g. { model: 'GPT-4', game: 'Stag Hunt', framing: 'business' }. */
  readonly key: Readonly<Record<string, string>>;
  readonly obs: Observations;
  /** Anything else known about the cell (source, method, note, reported rate text …). */
  readonly provenance?: Readonly<Record<string, string>>;
  /** Trials of the cell that gave no valid answer (direct runs); undefined when the input does not say. */
  readonly invalid?: number;
}

export interface CellTable {
  /** Factor names in key order; every cell's key has exactly these. */
  readonly factors: readonly string[];
  readonly cells: readonly Cell[];
}

/** A stable identifier for a cell key: factor=level pairs in the table's factor order. */
export function cellId(factors: readonly string[], key: Readonly<Record<string, string>>): string {
  return factors.map((f) => `${f}=${key[f]}`).join('\u001f');
}

/** Number of valid observations of a cell. */
export function cellSize(obs: Observations): number {
  if (obs.kind === 'clustered') return total(obs.sizes);
  return obs.kind === 'binary' ? obs.n : obs.values.length;
}

/** The cell's point rate: x/n, or the mean of its per-trial probabilities (NaN when empty). */
export function cellRate(obs: Observations): number {
  if (obs.kind === 'binary') return obs.n === 0 ? NaN : obs.x / obs.n;
  if (obs.kind === 'clustered') { const n = total(obs.sizes); return n === 0 ? NaN : total(obs.sums) / n; }
  const v = obs.values;
  if (v.length === 0) return NaN;
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i];
  return s / v.length;
}

/** True when resampling cannot move the cell: 0/n, n/n, all trials equal, or all cluster means equal. */
export function isDegenerate(obs: Observations): boolean {
  if (obs.kind === 'binary') return obs.n > 0 && (obs.x === 0 || obs.x === obs.n);
  if (obs.kind === 'clustered') {
    const m = obs.sizes.length;
    for (let j = 1; j < m; j++) if (obs.sums[j] * obs.sizes[0] !== obs.sums[0] * obs.sizes[j]) return false;
    return m > 0;
  }
  const v = obs.values;
  for (let i = 1; i < v.length; i++) if (v[i] !== v[0]) return false;
  return v.length > 0;
}

/** Distinct levels of a factor in first-appearance order. */
export function levels(table: CellTable, factor: string): string[] {
  const seen = new Set<string>();
  for (const c of table.cells) seen.add(c.key[factor]);
  return [...seen];
}

/** Index of cells by id, for estimands that look cells up by key. */
export function indexCells(table: CellTable): Map<string, number> {
  const m = new Map<string, number>();
  table.cells.forEach((c, i) => m.set(cellId(table.factors, c.key), i));
  return m;
}

/**
 * Items in the order their levels take in the given lists (a design's order of models, games …),
 * compared list by list; a level missing from its list sorts after the listed ones, and ties keep
 * the items' original order.
 */
export function orderByLevels<T>(items: readonly T[], orders: readonly (readonly [(t: T) => string, readonly string[]])[]): T[] {
  const rank = (list: readonly string[], v: string) => { const i = list.indexOf(v); return i < 0 ? list.length : i; };
  return items
    .map((item, i) => ({ item, k: [...orders.map(([get, list]) => rank(list, get(item))), i] }))
    .sort((a, b) => a.k.reduce((d, v, j) => d || v - b.k[j], 0))
    .map((x) => x.item);
}
