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
import { inRounds, opponentLabel, twoFramingTable, type RoundRange } from './decisions.js';
import { UserError } from './errors.js';
import { analyzeMsg } from './messages/analyze.js';

/** The previous-round states in column order ('' is none). */
export const AGGREGATE_STATES = ['', 'CC', 'CD', 'DC', 'DD'] as const;
export type AggregateState = typeof AGGREGATE_STATES[number];

/** The columns of the aggregates table, factor columns (one per factor, named by it) between opponent and match. */
export const AGGREGATE_KEY_COLUMNS = ['model', 'game', 'framing', 'opponent'] as const;
export const AGGREGATE_VALUE_COLUMNS = ['match', 'round', 'previous', 'decisions', 'valid', 'cooperations'] as const;

/**
 * One match of a cell, one typed array: per previous state s (AGGREGATE_STATES index) [valid, cooperations] at 2s, then per round r
 * [decisions, valid, cooperations] at STATE_SLOTS + 3(r − 1). Whole counts below 2^32 (a larger one is refused where it is added),
 * held in 8, 16 or 32 bits: the narrowest that holds the largest count of the cell.
 */
export type MatchSums = Uint8Array | Uint16Array | Uint32Array;
/** The widths of a cell's pool, narrowest first, with the largest count each holds. */
const WIDTHS: ReadonlyArray<readonly [(n: number) => MatchSums, number]> = [
  [(n) => new Uint8Array(n), 0xff], [(n) => new Uint16Array(n), 0xffff], [(n) => new Uint32Array(n), 0xffffffff]];
export const STATE_SLOTS = 2 * AGGREGATE_STATES.length;
/** Of round r (from 1): k = 0 decisions, 1 valid, 2 cooperations (0 past the match's last round). */
export const roundAt = (m: MatchSums, r: number, k: number): number => m[STATE_SLOTS + 3 * (r - 1) + k] ?? 0;
/** After previous state s (AGGREGATE_STATES index): k = 0 valid, 1 cooperations. */
export const stateAt = (m: MatchSums, s: number, k: number): number => m[2 * s + k];
/** The rounds a match's array holds. */
const roundsHeld = (m: ArrayLike<number>): number => (m.length - STATE_SLOTS) / 3;
/** The highest round with a decision (0 when none). */
function lastDecided(m: ArrayLike<number>): number {
  for (let r = roundsHeld(m); r >= 1; r--) if (m[STATE_SLOTS + 3 * (r - 1)] > 0) return r;
  return 0;
}
/** The largest count a match holds (32 bits): a larger one is refused where it is added. */
export const MAX_COUNT = 0xffffffff;
/** A copy of `a` in an array of length n (of the same type, or made by `make`). */
function grown<T extends MatchSums>(a: T, n: number, make = (k: number) => new (a.constructor as new (k: number) => T)(k)): T {
  const b = make(n); b.set(a); return b;
}

/** Plain text order (UTF-16 code units), the same in every engine's result once read here. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byKey = (a: readonly string[], b: readonly string[]): number => {
  for (let i = 0; i < a.length; i++) { const c = byText(a[i], b[i]); if (c !== 0) return c; }
  return 0;
};

/**
 * One cell: its key, its matches, its last round. The matches' arrays live side by side in one pool (no object per match), so a
 * cell of G matches of R rounds holds G ids and G · (10 + 3R) counts of 8 bits (16 or 32 once a count of the cell needs them).
 */
export class AggregateCell {
  horizon = 0;
  /** Match ids in the order added; `sorted` while each exceeds the one before. */
  private readonly ids: string[] = [];
  /** Per match: where its counts start in the pool and how many (room grown by doubling, as the pool's). */
  private starts = new Uint32Array(64);
  private lengths = new Uint32Array(64);
  private pool: MatchSums = new Uint8Array(256);
  /** The pool's width: its index in WIDTHS. */
  private width = 0;
  private used = 0;
  private index: Map<string, number> | undefined;
  private sorted = true;

  constructor(readonly key: readonly string[]) {}

  /** The number of matches. */
  get size(): number { return this.ids.length; }

  /** Match j's array (a view: valid until the next add). */
  sums(j: number): MatchSums { return this.pool.subarray(this.starts[j], this.starts[j] + this.lengths[j]); }

  /** Add a match's counts (MatchSums layout), summed into the match's own when the cell has it. */
  add(match: string, counts: ArrayLike<number>): void {
    let j = this.find(match);
    if (j < 0) {
      j = this.ids.length;
      if (this.sorted && j > 0 && !(this.ids[j - 1] < match)) this.sorted = false;
      if (j === this.starts.length) { this.starts = grown(this.starts, 2 * j + 64); this.lengths = grown(this.lengths, 2 * j + 64); }
      this.ids.push(match); this.starts[j] = this.reserve(counts.length); this.lengths[j] = counts.length;
      this.index?.set(match, j);
    } else if (this.lengths[j] < counts.length) {
      const at = this.reserve(counts.length); // grown: moved to the end of the pool
      this.pool.copyWithin(at, this.starts[j], this.starts[j] + this.lengths[j]);
      this.starts[j] = at; this.lengths[j] = counts.length;
    }
    const at = this.starts[j];
    for (let i = 0; i < counts.length; i++) {
      const v = this.pool[at + i] + counts[i];
      if (!(Number.isInteger(v) && v >= 0 && v <= MAX_COUNT)) throw new RangeError(`count out of range in match ${match}: ${v}`);
      if (v > WIDTHS[this.width][1]) this.widen(v);
      this.pool[at + i] = v;
    }
    this.horizon = Math.max(this.horizon, lastDecided(counts));
  }

  /** Drop the pool's room to grow (the cell's matches all added: a later add grows it again). */
  trim(): void {
    if (this.pool.length > this.used) this.pool = this.pool.slice(0, this.used);
    if (this.starts.length > this.size) { this.starts = this.starts.slice(0, this.size); this.lengths = this.lengths.slice(0, this.size); }
  }

  /** The matches in a stable order (sorted by id): their indices. */
  order(): number[] {
    const js = Array.from(this.ids, (_, j) => j);
    return this.sorted ? js : js.sort((a, b) => byText(this.ids[a], this.ids[b]));
  }

  /** The same matches under another key (shared, not copied: neither is added to after). */
  withKey(key: readonly string[]): AggregateCell {
    return Object.assign(Object.create(AggregateCell.prototype) as AggregateCell, this, { key });
  }

  /** Match j's id. */
  id(j: number): string { return this.ids[j]; }

  private find(match: string): number {
    const n = this.ids.length;
    if (n === 0) return -1;
    if (this.sorted && this.index === undefined) {
      const last = this.ids[n - 1];
      if (last < match) return -1;
      if (last === match) return n - 1;
      this.index = new Map(this.ids.map((id, j) => [id, j]));
    }
    this.index ??= new Map(this.ids.map((id, j) => [id, j]));
    return this.index.get(match) ?? -1;
  }

  /** A pool wide enough for count v, the counts copied. */
  private widen(v: number): void {
    while (v > WIDTHS[this.width][1]) this.width++;
    this.pool = grown(this.pool, this.pool.length, WIDTHS[this.width][0]);
  }

  private reserve(length: number): number {
    if (this.used + length > this.pool.length) this.pool = grown(this.pool.subarray(0, this.used), Math.max(this.pool.length * 2, this.used + length));
    const at = this.used;
    this.used += length;
    return at;
  }
}

/** The aggregates of one source: cells keyed by model, game, framing, opponent and factor levels. */
export class MatchAggregates {
  readonly cells = new Map<string, AggregateCell>();
  decisions = 0;
  /** The design's order of the key's first levels (models, games, framings: an export's sidecar records it); unlisted levels after, by text. */
  levelOrder?: readonly (readonly string[])[];

  constructor(readonly factors: readonly string[]) {}

  /** Add one match of a cell (key: model, game, framing, opponent, then the factor levels in the table's factor order). */
  addMatch(key: readonly string[], match: string, counts: ArrayLike<number>): void {
    const id = JSON.stringify(key);
    let cell = this.cells.get(id);
    if (!cell) { cell = new AggregateCell(key); this.cells.set(id, cell); }
    cell.add(match, counts);
    for (let r = 1; r <= roundsHeld(counts); r++) this.decisions += counts[STATE_SLOTS + 3 * (r - 1)];
  }

  /** The cell of a key (its JSON text, as addMatch keys it) trimmed to its counts: for a source whose rows come grouped by cell. */
  trimCell(id: string): void {
    this.cells.get(id)?.trim();
  }

  /**
   * The cells in a stable order (the design's where `levelOrder` gives it, else sorted by key), regrouped by the chosen factors (the
   * others merged), without the dropped models.
   */
  sortedCells(chosen: readonly string[] = [], dropModels: ReadonlySet<string> = new Set()): AggregateCell[] {
    const at = chosen.map((f) => this.factors.indexOf(f));
    if (at.some((i) => i < 0)) throw new RangeError(`unknown factor: ${chosen[at.findIndex((i) => i < 0)]}`);
    const groups = new Map<string, AggregateCell[]>();
    for (const c of this.cells.values()) {
      if (dropModels.has(c.key[0])) continue;
      const id = JSON.stringify([...c.key.slice(0, 4), ...at.map((i) => c.key[4 + i])]);
      groups.set(id, [...(groups.get(id) ?? []), c]);
    }
    const out = [...groups.values()].map((cs) => {
      if (cs.length === 1) return cs[0].withKey([...cs[0].key.slice(0, 4), ...at.map((i) => cs[0].key[4 + i])]); // shared, never written
      const merged = new AggregateCell([...cs[0].key.slice(0, 4), ...at.map((i) => cs[0].key[4 + i])]);
      for (const c of cs) {
        for (const j of c.order()) {
          try {
            merged.add(c.id(j), c.sums(j));
          } catch (e) {
            if (e instanceof RangeError) throw new UserError(analyzeMsg.mergedTooLarge(c.id(j), merged.key));
            throw e;
          }
        }
      }
      return merged;
    });
    const rank = (i: number, v: string) => { const l = this.levelOrder?.[i] ?? []; const r = l.indexOf(v); return r < 0 ? l.length : r; };
    const byLevels = (a: readonly string[], b: readonly string[]) => a.reduce((d, v, i) => d || rank(i, v) - rank(i, b[i]), 0);
    return out.sort((a, b) => byLevels(a.key, b.key) || byKey(a.key, b.key));
  }

  /** The same aggregates without the given models' cells (shared, not copied). */
  withoutModels(drop: ReadonlySet<string>): MatchAggregates {
    const out = new MatchAggregates(this.factors);
    out.levelOrder = this.levelOrder;
    for (const [id, c] of this.cells) {
      if (drop.has(c.key[0])) continue;
      out.cells.set(id, c);
      for (let j = 0; j < c.size; j++) { const m = c.sums(j); for (let r = 1; r <= roundsHeld(m); r++) out.decisions += roundAt(m, r, 0); }
    }
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
    for (const c of this.cells.values()) {
      for (let j = 0; j < c.size; j++) { const m = c.sums(j); for (let r = 1; r <= roundsHeld(m); r++) if (roundAt(m, r, 1) > 0) return true; }
    }
    return false;
  }

  /** The models present, sorted. */
  models(): string[] {
    return [...new Set([...this.cells.values()].map((c) => c.key[0]))].sort(byText);
  }
}

/** A cell's matches in a stable order (sorted by id). */
export const sortedMatches = (c: AggregateCell): Array<[string, MatchSums]> => c.order().map((j) => [c.id(j), c.sums(j)]);

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
    const key: Record<string, string> = { model, game, framing, opponent: opponentLabel({ model, opponent }) };
    chosen.forEach((f, i) => { key[f] = c.key[4 + i]; });
    cells.push({ key, obs: { kind: 'clustered', sizes: Float64Array.from(sizes), sums: Float64Array.from(sums) } });
  }
  return twoFramingTable(cells, chosen, [...opponents.values()].some((s) => s.size > 1));
}
