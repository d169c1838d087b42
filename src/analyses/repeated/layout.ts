/**
 * The decisions of repeated play grouped as the repeated analysis reads them: one group per cell
 * (model × game × framing × opponent), its matches the clusters, and per match the columns every
 * statistic of the cell is a rate of — all rounds, each round, each previous round (reactions),
 * the rounds before the last (docs/methods.md, "Repeated play").
 */
import type { RepeatedDecision } from '../../core/decisions.js';
import type { ClusterColumns } from '../../stats/cluster-columns.js';

/** The previous round as (own move, the other's move). */
export const PREVIOUS = ['CC', 'CD', 'DC', 'DD'] as const;
export type Previous = typeof PREVIOUS[number];

export const CELL_FACTORS = ['model', 'game', 'framing', 'opponent'] as const;
export type CellKey = Readonly<Record<typeof CELL_FACTORS[number], string>>;

export interface RepeatedCell {
  readonly key: CellKey;
  /** Match ids in first-appearance order: the clusters. */
  readonly matches: readonly string[];
  /** The highest round of the cell: its last round. */
  readonly horizon: number;
  /** Columns: 0 all rounds, 1…horizon each round, then CC, CD, DC, DD, then the rounds before the last. */
  readonly columns: ClusterColumns;
}

/** Column indices of a cell with horizon R. */
export const columnOf = {
  all: 0,
  round: (r: number) => r,
  previous: (horizon: number, p: Previous) => horizon + 1 + PREVIOUS.indexOf(p),
  beforeLast: (horizon: number) => horizon + 5,
  width: (horizon: number) => horizon + 6,
};

export function cellKeyId(k: CellKey): string {
  return JSON.stringify(CELL_FACTORS.map((f) => k[f]));
}

/** A seat's decision of one round of one match of one cell. */
const seatKey = (d: RepeatedDecision, round: number) => JSON.stringify([d.model, d.game, d.framing, d.opponent, d.match, d.seat, round]);

interface Acc {
  readonly key: CellKey;
  readonly decisions: RepeatedDecision[];
  readonly matches: Map<string, number>;
  horizon: number;
}

/** The previous round's state of a decision, from the same seat's decision of round − 1 (undefined when unknown). */
function previousOf(d: RepeatedDecision, bySeat: ReadonlyMap<string, RepeatedDecision>): Previous | undefined {
  if (d.round <= 1) return undefined;
  const p = bySeat.get(seatKey(d, d.round - 1));
  if (!p || p.action === null || p.opponentAction === null) return undefined;
  return `${p.action}${p.opponentAction}` as Previous;
}

function columnsOf(a: Acc, bySeat: ReadonlyMap<string, RepeatedDecision>): ClusterColumns {
  const width = columnOf.width(a.horizon);
  const m = a.matches.size;
  const sizes = Array.from({ length: width }, () => new Float64Array(m));
  const sums = Array.from({ length: width }, () => new Float64Array(m));
  const add = (c: number, j: number, v: number) => { sizes[c][j]++; sums[c][j] += v; };
  for (const d of a.decisions) {
    if (d.action === null) continue;
    const j = a.matches.get(d.match)!;
    const v = d.action === 'C' ? 1 : 0;
    add(columnOf.all, j, v);
    add(columnOf.round(d.round), j, v);
    if (d.round < a.horizon) add(columnOf.beforeLast(a.horizon), j, v);
    const p = previousOf(d, bySeat);
    if (p) add(columnOf.previous(a.horizon, p), j, v);
  }
  return { sizes, sums };
}

/**
 * The cells of a set of decisions in first-appearance order, each with its matches and columns.
 * Invalid decisions (action null) count in no column; a decision whose previous round is invalid
 * or unknown counts in every column but the reactions.
 */
export function repeatedCells(decisions: readonly RepeatedDecision[]): RepeatedCell[] {
  const cells = new Map<string, Acc>();
  const bySeat = new Map<string, RepeatedDecision>();
  for (const d of decisions) {
    if (!(Number.isInteger(d.round) && d.round >= 1)) throw new RangeError(`round must be a positive integer: ${d.round} (match ${d.match})`);
    const key: CellKey = { model: d.model, game: d.game, framing: d.framing, opponent: d.opponent };
    const id = cellKeyId(key);
    let a = cells.get(id);
    if (!a) { a = { key, decisions: [], matches: new Map(), horizon: 0 }; cells.set(id, a); }
    a.decisions.push(d);
    if (!a.matches.has(d.match)) a.matches.set(d.match, a.matches.size);
    if (d.round > a.horizon) a.horizon = d.round;
    bySeat.set(seatKey(d, d.round), d);
  }
  return [...cells.values()].map((a) => ({ key: a.key, matches: [...a.matches.keys()], horizon: a.horizon, columns: columnsOf(a, bySeat) }));
}

/** Σ sizes of a column: its decisions. */
export function columnSize(cell: RepeatedCell, c: number): number {
  const v = cell.columns.sizes[c];
  let n = 0;
  for (let j = 0; j < v.length; j++) n += v[j];
  return n;
}
