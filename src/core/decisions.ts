/**
 * Decisions of repeated play, whatever their source: a repeated run's trial store (src/live/repeated/,
 * read by src/sources/), or a published game log read through a log format (src/sources/logs/).
 * The repeated-game analysis (src/analyses/repeated/) reads only these; the two-framing analyses
 * read the cell table that `decisionsTable` makes of them (the match is the cluster of every cell).
 */
import type { Origin } from './provenance.js';
import type { Action } from './games.js';
import type { Cell, CellTable } from './cells.js';

/** Where a decision read from a file came from: the file, its 1-based line, the label as written. */
export interface DecisionProvenance {
  readonly file: string;
  readonly line: number;
  readonly label: string;
}

/** One seat's move in one round of one match. */
export interface RepeatedDecision {
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  /** A fixed strategy's id, the other model's id, or the model's own id when it plays itself. */
  readonly opponent: string;
  /** Identifies the match within its source; both seats of a match carry the same value. */
  readonly match: string;
  /** 1-based. */
  readonly round: number;
  /** 1 or 2. */
  readonly seat: number;
  /** The canonical move, null when the round is invalid (an unparseable answer, a forfeit). */
  readonly action: Action | null;
  /** The other seat's move in the same round (null when unknown or invalid). */
  readonly opponentAction: Action | null;
  /** This seat's payoff in the round, when known. */
  readonly payoff?: number;
  /** Further factor levels (persona, language, payoff type …), part of the cell identity. */
  readonly factors?: Readonly<Record<string, string>>;
  /** The prompt and answer of a direct run, for the match browser. */
  readonly prompt?: string;
  readonly answer?: string;
  readonly provenance?: DecisionProvenance;
}

/** The decisions of one source, with what the outputs must say about it. */
export interface RepeatedDecisions {
  /** The file or store, as the user named it. */
  readonly path: string;
  readonly sha256: string;
  /** What the decisions are ("repeated run", "Akata et al. round log" …). */
  readonly kind: string;
  /** True when the data are synthetic (simulated models). */
  readonly synthetic: boolean;
  /** Where they come from, when the reader knows more than the path and hash (a store's run, an export's sidecar). */
  readonly origin?: Origin;
  readonly decisions: readonly RepeatedDecision[];
  /** How many decisions the source holds when they are not all in `decisions` (aggregated by a query engine); else decisions.length. */
  readonly decisionCount?: number;
  /** Notes of the reading, shown in the report (e.g. a game left out and why). */
  readonly notes?: readonly string[];
  /** Display names the source gives (a log format's or a design's `names:` block). */
  readonly names?: Readonly<Record<string, string>>;
  /**
   * Where the user wrote those names for this input (a design's `names:` block), so an id that names nothing here is warned of; a log format's block, which
   * names every player of its published log, is not.
   */
  readonly namesBlock?: string;
  /** Players that are fixed strategies or scripts (a log format's `scripted:`): opponents, not models, unless every player is asked for. */
  readonly scripted?: readonly string[];
}

/** The decisions' provenance: the reader's, else their path, hash and synthetic flag. */
export function decisionsOrigin(d: Pick<RepeatedDecisions, 'path' | 'sha256' | 'synthetic' | 'origin'>): Origin {
  if (d.origin) return d.synthetic && !d.origin.synthetic ? { ...d.origin, synthetic: true } : d.origin;
  return { synthetic: d.synthetic, source: { path: d.path, sha256: d.sha256 } };
}

/** Rounds to keep: all, or an inclusive range (`--rounds 1`, `--rounds 1-3`). */
export interface RoundRange {
  readonly from: number;
  readonly to: number;
}

/** True when the round is kept: no range given, or from ≤ round ≤ to. */
export const inRounds = (round: number, r: RoundRange | undefined): boolean => !r || (round >= r.from && round <= r.to);

/** A range as the flag writes it: `1`, `1-3`. */
export const roundsText = (r: RoundRange): string => (r.from === r.to ? String(r.from) : `${r.from}-${r.to}`);

export interface DecisionsTableOptions {
  readonly rounds?: RoundRange;
  /** Names of `factors` entries that become factors of the cell (besides the opponent). */
  readonly factors?: readonly string[];
}

/** The opponent level of a model's matches against itself in a cell table (the decisions keep the model's own id). */
export const SELF_OPPONENT = 'self';

/** A decision's opponent as a cell table names it: `self` for self-play, the decision's opponent otherwise. */
export const opponentLabel = (d: { readonly model: string; readonly opponent: string }): string => (d.opponent === d.model ? SELF_OPPONENT : d.opponent);

/**
 * The cell table of a set of decisions: cells keyed by model, game, framing, opponent (`self` for
 * self-play, so every model has the same self-play level) and the chosen factors, each decision a
 * 0/1 outcome (C = 1), clustered by match; invalid decisions (action null) are left out, as
 * invalid one-shot trials are.
 */
export function decisionsTable(decisions: readonly RepeatedDecision[], opts: DecisionsTableOptions = {}): CellTable {
  const extra = opts.factors ?? [];
  const factors = ['model', 'game', 'framing', 'opponent', ...extra];
  const cells = new Map<string, { key: Record<string, string>; clusters: Map<string, { size: number; sum: number }> }>();
  for (const d of decisions) {
    if (d.action === null) continue;
    if (!inRounds(d.round, opts.rounds)) continue;
    const key: Record<string, string> = { model: d.model, game: d.game, framing: d.framing, opponent: opponentLabel(d) };
    for (const f of extra) key[f] = d.factors?.[f] ?? '';
    const id = JSON.stringify(factors.map((f) => key[f]));
    let acc = cells.get(id);
    if (!acc) { acc = { key, clusters: new Map() }; cells.set(id, acc); }
    const c = acc.clusters.get(d.match);
    const v = d.action === 'C' ? 1 : 0;
    if (c) { c.size++; c.sum += v; } else acc.clusters.set(d.match, { size: 1, sum: v });
  }
  return {
    factors,
    cells: [...cells.values()].map((a): Cell => {
      const cs = [...a.clusters.values()];
      return { key: a.key, obs: { kind: 'clustered', sizes: Float64Array.from(cs, (c) => c.size), sums: Float64Array.from(cs, (c) => c.sum) } };
    }),
  };
}

/**
 * The two-framing table of a set of decisions, the one every command reads (`analyze` on repeated
 * play or logs, `reproduce`/`report`/`audit`/`coverage --trials … --format`): `decisionsTable`
 * without the opponent factor when no model meets more than one opponent (it then names no
 * distinction), and with plain counts when every cluster holds one decision (`independent`).
 */
export function framingCells(decisions: readonly RepeatedDecision[], opts: DecisionsTableOptions = {}): { table: CellTable; independent: boolean } {
  const t = decisionsTable(decisions, opts);
  return twoFramingTable(t.cells, opts.factors ?? [], opponentVaries(decisions, opts.rounds));
}

/**
 * The two-framing table of clustered cells keyed by model, game, framing, opponent and the `extra` factors (from decisions or from
 * per-match aggregates, core/aggregates.ts): without the opponent unless `keepOpponent`, and with plain counts when every cluster
 * holds one decision (`independent`).
 */
export function twoFramingTable(clustered: readonly Cell[], extra: readonly string[], keepOpponent: boolean): { table: CellTable; independent: boolean } {
  const factors = ['model', 'game', 'framing', ...(keepOpponent ? ['opponent'] : []), ...extra];
  const independent = clustered.every((c) => c.obs.kind === 'clustered' && c.obs.sizes.every((s) => s === 1));
  const cells = clustered.map((c): Cell => {
    const key = Object.fromEntries(factors.map((f) => [f, c.key[f]]));
    if (!independent || c.obs.kind !== 'clustered') return { ...c, key };
    let x = 0;
    for (const s of c.obs.sums) x += s;
    return { key, obs: { kind: 'binary', n: c.obs.sizes.length, x } };
  });
  return { table: { factors, cells }, independent };
}

/** True when some model meets more than one opponent among the kept (valid, in-range) decisions. */
function opponentVaries(decisions: readonly RepeatedDecision[], rounds: RoundRange | undefined): boolean {
  const seen = new Map<string, string>();
  for (const d of decisions) {
    if (d.action === null || !inRounds(d.round, rounds)) continue;
    const o = seen.get(d.model);
    if (o === undefined) seen.set(d.model, d.opponent);
    else if (o !== d.opponent) return true;
  }
  return false;
}
