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
  /** Levels of the chosen further factors of the decisions (`analyze --factor`), in their order; {} when none. */
  readonly factors: Readonly<Record<string, string>>;
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

/** A cell's identity: its key and, when factors were chosen, their levels (the key alone otherwise). */
export function cellId(c: Pick<RepeatedCell, 'key' | 'factors'>): string {
  const levels = Object.values(c.factors);
  return levels.length === 0 ? cellKeyId(c.key) : JSON.stringify([...CELL_FACTORS.map((f) => c.key[f]), ...levels]);
}

interface Acc {
  readonly key: CellKey;
  readonly factors: Readonly<Record<string, string>>;
  /** Indices of the cell's decisions in the input. */
  readonly items: number[];
  /** Per item: its match's index and its seat's index within the cell. */
  readonly matchOf: number[];
  readonly seatOf: number[];
  readonly matches: Map<string, number>;
  readonly seats: Map<number, number>;
  horizon: number;
}

/** The previous round's state code of a move pair: 1 + CC, CD, DC, DD in PREVIOUS order; 0 when either move is unknown. */
function stateCode(d: RepeatedDecision): number {
  if (d.action === null || d.opponentAction === null) return 0;
  return 1 + (d.action === 'D' ? 2 : 0) + (d.opponentAction === 'D' ? 1 : 0);
}

function columnsOf(a: Acc, decisions: readonly RepeatedDecision[]): ClusterColumns {
  const R = a.horizon, width = columnOf.width(R), m = a.matches.size;
  const sizes = Array.from({ length: width }, () => new Float64Array(m));
  const sums = Array.from({ length: width }, () => new Float64Array(m));
  // the state of every (match, seat, round), for the next round's reaction
  const stride = R + 1, seats = a.seats.size;
  const state = new Uint8Array(m * seats * stride);
  a.items.forEach((i, k) => { state[(a.matchOf[k] * seats + a.seatOf[k]) * stride + decisions[i].round] = stateCode(decisions[i]); });
  const add = (c: number, j: number, v: number) => { sizes[c][j]++; sums[c][j] += v; };
  a.items.forEach((i, k) => {
    const d = decisions[i];
    if (d.action === null) return;
    const j = a.matchOf[k], v = d.action === 'C' ? 1 : 0;
    add(columnOf.all, j, v);
    add(columnOf.round(d.round), j, v);
    if (d.round < R) add(columnOf.beforeLast(R), j, v);
    const p = d.round > 1 ? state[(j * seats + a.seatOf[k]) * stride + d.round - 1] : 0;
    if (p > 0) add(R + p, j, v); // columnOf.previous(R, PREVIOUS[p − 1])
  });
  return { sizes, sums };
}

type Index = Map<string, Map<string, Map<string, Map<string, Map<string, Acc>>>>>;

/** The cell of a key, found level by level (no string built per decision without factors). */
function cellFor(index: Index, d: RepeatedDecision, factors: readonly string[], created: Acc[]): Acc {
  const level = <T>(m: Map<string, T>, k: string, make: () => T): T => { let v = m.get(k); if (v === undefined) { v = make(); m.set(k, v); } return v; };
  const byOpponent = level(level(level(index, d.model, () => new Map()), d.game, () => new Map()), d.framing, () => new Map<string, Map<string, Acc>>());
  const levels = factors.map((f) => d.factors?.[f] ?? '');
  return level(level(byOpponent, d.opponent, () => new Map<string, Acc>()), factors.length === 0 ? '' : JSON.stringify(levels), () => {
    const acc: Acc = {
      key: { model: d.model, game: d.game, framing: d.framing, opponent: d.opponent }, factors: Object.fromEntries(factors.map((f, i) => [f, levels[i]])),
      items: [], matchOf: [], seatOf: [], matches: new Map(), seats: new Map(), horizon: 0,
    };
    created.push(acc);
    return acc;
  });
}

/**
 * The cells of a set of decisions in first-appearance order, each with its matches and columns;
 * with `factors`, a cell per level of those decision factors too (a decision without one: "").
 * Invalid decisions (action null) count in no column; a decision whose previous round is invalid
 * or unknown counts in every column but the reactions.
 */
export function repeatedCells(decisions: readonly RepeatedDecision[], factors: readonly string[] = []): RepeatedCell[] {
  const index: Index = new Map();
  const cells: Acc[] = [];
  decisions.forEach((d, i) => {
    if (!(Number.isInteger(d.round) && d.round >= 1)) throw new RangeError(`round must be a positive integer: ${d.round} (match ${d.match})`);
    const a = cellFor(index, d, factors, cells);
    let j = a.matches.get(d.match);
    if (j === undefined) { j = a.matches.size; a.matches.set(d.match, j); }
    let seat = a.seats.get(d.seat);
    if (seat === undefined) { seat = a.seats.size; a.seats.set(d.seat, seat); }
    a.items.push(i); a.matchOf.push(j); a.seatOf.push(seat);
    if (d.round > a.horizon) a.horizon = d.round;
  });
  return cells.map((a) => ({ key: a.key, factors: a.factors, matches: [...a.matches.keys()], horizon: a.horizon, columns: columnsOf(a, decisions) }));
}

/** Σ sizes of a column: its decisions. */
export function columnSize(cell: RepeatedCell, c: number): number {
  const v = cell.columns.sizes[c];
  let n = 0;
  for (let j = 0; j < v.length; j++) n += v[j];
  return n;
}
