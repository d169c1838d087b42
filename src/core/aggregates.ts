/**
 * Per-match sufficient statistics of repeated play: what every estimand of `analyze` on a log
 * needs (docs/methods.md, "Aggregates"). One aggregate row is a cell (model, game, framing,
 * opponent, factor levels), a match, a round and the previous round's state (own move, the
 * other's move: CC, CD, DC, DD, or '' in round 1 and after an invalid or unknown move), with the
 * decisions there, the valid ones and the cooperations among them. A query engine reduces a log
 * to these rows (src/sources/engine/); `MatchAggregates` holds them per cell and match, so memory
 * grows with the matches and rounds, never with the decisions.
 */
import type { Cell, CellTable } from './cells.js';
import { inRounds, SELF_OPPONENT, type RepeatedDecision, type RepeatedDecisions, type RoundRange } from './decisions.js';

/** The previous-round states in column order ('' is none). */
export const AGGREGATE_STATES = ['', 'CC', 'CD', 'DC', 'DD'] as const;
export type AggregateState = typeof AGGREGATE_STATES[number];

/** The columns of the aggregates table, factor columns (one per factor, named by it) between opponent and match. */
export const AGGREGATE_KEY_COLUMNS = ['model', 'game', 'framing', 'opponent'] as const;
export const AGGREGATE_VALUE_COLUMNS = ['match', 'round', 'previous', 'decisions', 'valid', 'cooperations'] as const;

/** One row of the aggregates table. */
export interface AggregateRow {
  /** model, game, framing, opponent, then the factor levels in the table's factor order. */
  readonly key: readonly string[];
  readonly match: string;
  readonly round: number;
  /** Index in AGGREGATE_STATES. */
  readonly previous: number;
  readonly decisions: number;
  readonly valid: number;
  readonly cooperations: number;
}

/**
 * One match of a cell, one typed array: per previous state s (AGGREGATE_STATES index) [valid, cooperations] at 2s, then per round r
 * [decisions, valid, cooperations] at STATE_SLOTS + 3(r − 1).
 */
export type MatchSums = Float64Array;
const STATE_SLOTS = 2 * AGGREGATE_STATES.length;
/** Of round r (from 1): k = 0 decisions, 1 valid, 2 cooperations (0 past the match's last round). */
export const roundAt = (m: MatchSums, r: number, k: number): number => m[STATE_SLOTS + 3 * (r - 1) + k] ?? 0;
/** After previous state s (AGGREGATE_STATES index): k = 0 valid, 1 cooperations. */
export const stateAt = (m: MatchSums, s: number, k: number): number => m[2 * s + k];
/** The rounds a match's array holds. */
const roundsHeld = (m: MatchSums): number => (m.length - STATE_SLOTS) / 3;
/** The array with room for `rounds` rounds (itself when it has it). */
const withRounds = (m: MatchSums, rounds: number): MatchSums => {
  if (roundsHeld(m) >= rounds) return m;
  const out = new Float64Array(STATE_SLOTS + 3 * rounds);
  out.set(m);
  return out;
};

/** One cell: its key, its matches, its last round. */
export interface AggregateCell {
  readonly key: readonly string[];
  readonly matches: Map<string, MatchSums>;
  horizon: number;
}

/** Plain text order (UTF-16 code units), the same in every engine's result once read here. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byKey = (a: readonly string[], b: readonly string[]): number => {
  for (let i = 0; i < a.length; i++) { const c = byText(a[i], b[i]); if (c !== 0) return c; }
  return 0;
};

/** The aggregates of one source: cells keyed by model, game, framing, opponent and factor levels. */
export class MatchAggregates {
  readonly cells = new Map<string, AggregateCell>();
  decisions = 0;
  rows = 0;

  constructor(readonly factors: readonly string[]) {}

  add(r: AggregateRow): void {
    if (!(Number.isInteger(r.round) && r.round >= 1)) throw new RangeError(`round must be a positive integer: ${r.round} (match ${r.match})`);
    const id = JSON.stringify(r.key);
    let cell = this.cells.get(id);
    if (!cell) { cell = { key: r.key, matches: new Map(), horizon: 0 }; this.cells.set(id, cell); }
    const had = cell.matches.get(r.match);
    const m = withRounds(had ?? new Float64Array(STATE_SLOTS), r.round);
    if (m !== had) cell.matches.set(r.match, m);
    const at = STATE_SLOTS + 3 * (r.round - 1);
    m[at] += r.decisions; m[at + 1] += r.valid; m[at + 2] += r.cooperations;
    m[2 * r.previous] += r.valid; m[2 * r.previous + 1] += r.cooperations;
    if (r.decisions > 0 && r.round > cell.horizon) cell.horizon = r.round;
    this.decisions += r.decisions;
    this.rows++;
  }

  /** The cells in a stable order (sorted by key), regrouped by the chosen factors (the others merged), without the dropped models. */
  sortedCells(chosen: readonly string[] = [], dropModels: ReadonlySet<string> = new Set()): AggregateCell[] {
    const at = chosen.map((f) => this.factors.indexOf(f));
    if (at.some((i) => i < 0)) throw new RangeError(`unknown factor: ${chosen[at.findIndex((i) => i < 0)]}`);
    const out = new Map<string, AggregateCell>();
    const merged = new Set<string>(); // cells whose matches are their own (merged from several), not shared with this.cells
    for (const c of this.cells.values()) {
      if (dropModels.has(c.key[0])) continue;
      const key = [...c.key.slice(0, 4), ...at.map((i) => c.key[4 + i])];
      const id = JSON.stringify(key);
      const into = out.get(id);
      if (!into) { out.set(id, { key, matches: c.matches, horizon: c.horizon }); continue; } // shared, never written
      const matches = merged.has(id) ? into.matches : new Map([...into.matches].map(([k, v]) => [k, copy(v)]));
      merged.add(id);
      for (const [k, v] of c.matches) { const w = matches.get(k); matches.set(k, w ? merge(w, v) : copy(v)); }
      out.set(id, { key, matches, horizon: Math.max(into.horizon, c.horizon) });
    }
    return [...out.values()].sort((a, b) => byKey(a.key, b.key));
  }

  /** The same aggregates without the given models' cells (shared, not copied). */
  withoutModels(drop: ReadonlySet<string>): MatchAggregates {
    const out = new MatchAggregates(this.factors);
    for (const [id, c] of this.cells) {
      if (drop.has(c.key[0])) continue;
      out.cells.set(id, c);
      for (const m of c.matches.values()) for (let r = 1; r <= roundsHeld(m); r++) out.decisions += roundAt(m, r, 0);
    }
    out.rows = this.rows;
    return out;
  }

  /** The highest round of any cell (0 when empty). */
  lastRound(): number {
    let r = 0;
    for (const c of this.cells.values()) r = Math.max(r, c.horizon);
    return r;
  }

  /** True when some decision is valid. */
  anyValid(): boolean {
    for (const c of this.cells.values()) for (const m of c.matches.values()) for (let r = 1; r <= roundsHeld(m); r++) if (roundAt(m, r, 1) > 0) return true;
    return false;
  }

  /** The models present, sorted. */
  models(): string[] {
    return [...new Set([...this.cells.values()].map((c) => c.key[0]))].sort(byText);
  }
}

const copy = (m: MatchSums): MatchSums => Float64Array.from(m);
/** The sum of two matches' arrays (the longer's length). */
function merge(into: MatchSums, m: MatchSums): MatchSums {
  const out = withRounds(into, roundsHeld(m));
  m.forEach((v, i) => { out[i] += v; });
  return out;
}

/** A cell's matches in a stable order (sorted by id). */
export const sortedMatches = (c: AggregateCell): Array<[string, MatchSums]> => [...c.matches].sort((a, b) => byText(a[0], b[0]));

/** Valid decisions and cooperations of a match in the rounds kept. */
export function matchSums(m: MatchSums, rounds: RoundRange | undefined): { valid: number; cooperations: number } {
  let valid = 0, cooperations = 0;
  for (let r = 1; r <= roundsHeld(m); r++) {
    if (!inRounds(r, rounds)) continue;
    valid += roundAt(m, r, 1); cooperations += roundAt(m, r, 2);
  }
  return { valid, cooperations };
}


/**
 * The two-framing cell table of the aggregates, as `framingCells` makes it of decisions (core/decisions.ts), in a stable order:
 * cells keyed by model, game, framing, opponent (`self` for self-play) and the chosen factors, clustered by match over the rounds kept;
 * without the opponent when no model meets more than one; plain counts when every cluster holds one decision.
 */
export function aggregateFramingCells(agg: MatchAggregates, rounds: RoundRange | undefined, chosen: readonly string[] = [],
  dropModels: ReadonlySet<string> = new Set()): { table: CellTable; independent: boolean } {
  const cells: Cell[] = [];
  const opponents = new Map<string, Set<string>>();
  for (const c of agg.sortedCells(chosen, dropModels)) {
    const sizes: number[] = [], sums: number[] = [];
    for (const [, m] of sortedMatches(c)) {
      const s = matchSums(m, rounds);
      if (s.valid > 0) { sizes.push(s.valid); sums.push(s.cooperations); }
    }
    if (sizes.length === 0) continue;
    const [model, game, framing, opponent] = c.key;
    const seen = opponents.get(model) ?? new Set<string>();
    seen.add(opponent);
    opponents.set(model, seen);
    const key: Record<string, string> = { model, game, framing, opponent: opponent === model ? SELF_OPPONENT : opponent };
    chosen.forEach((f, i) => { key[f] = c.key[4 + i]; });
    cells.push({ key, obs: { kind: 'clustered', sizes: Float64Array.from(sizes), sums: Float64Array.from(sums) } });
  }
  const keepOpponent = [...opponents.values()].some((s) => s.size > 1);
  const factors = ['model', 'game', 'framing', ...(keepOpponent ? ['opponent'] : []), ...chosen];
  const independent = cells.every((c) => c.obs.kind === 'clustered' && c.obs.sizes.every((s) => s === 1));
  const out = cells.map((c): Cell => {
    const key = Object.fromEntries(factors.map((f) => [f, c.key[f]]));
    if (!independent || c.obs.kind !== 'clustered') return { ...c, key };
    let x = 0;
    for (const s of c.obs.sums) x += s;
    return { key, obs: { kind: 'binary', n: c.obs.sizes.length, x } };
  });
  // cells of one (model, game, framing, factors) but different opponents merge when the opponent is dropped (one opponent per model: none do)
  return { table: { factors, cells: out }, independent };
}

/** Decisions of repeated play with their per-match aggregates: the tables of `analyze` read the aggregates. */
export interface RepeatedAggregates extends RepeatedDecisions {
  /** Every table is computed from these; the decisions (often none) feed only the match browser. */
  readonly aggregates: MatchAggregates;
}

/** The state code of a move pair: 1 + CC, CD, DC, DD; 0 when either move is unknown. */
const stateOf = (d: RepeatedDecision): number =>
  (d.action === null || d.opponentAction === null ? 0 : 1 + (d.action === 'D' ? 2 : 0) + (d.opponentAction === 'D' ? 1 : 0));

/**
 * The aggregates of decisions read in memory, as an engine's query makes them: the reference the
 * engine's SQL is tested against, and the route of logs no query can read (a format the engine does not compile).
 */
export function aggregateDecisions(decisions: readonly RepeatedDecision[], factors: readonly string[]): MatchAggregates {
  const state = new Map<string, number>();
  for (const d of decisions) state.set(`${d.match}\u0000${d.seat}\u0000${d.round}`, stateOf(d));
  const agg = new MatchAggregates(factors);
  for (const d of decisions) {
    const valid = d.action === null ? 0 : 1;
    const previous = valid && d.round > 1 ? state.get(`${d.match}\u0000${d.seat}\u0000${d.round - 1}`) ?? 0 : 0;
    agg.add({ key: [d.model, d.game, d.framing, d.opponent, ...factors.map((f) => d.factors?.[f] ?? '')], match: d.match, round: d.round, previous,
      decisions: 1, valid, cooperations: d.action === 'C' ? 1 : 0 });
  }
  return agg;
}
