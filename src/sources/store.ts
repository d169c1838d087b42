import { storedRunKind, type RunKind } from '../live/store/run-kind.js';
import { scoredProbes, storedProbes } from '../live/probes/store.js';
import type { ScoredProbe } from '../live/probes/comprehension.js';
import { readAdaptiveRun, type AdaptiveRun } from './adaptive-store.js';
import { StoreFault, StoreRefusal } from '../live/store/integrity.js';
import { readableDesign } from '../live/store/stored-design.js';
import { boundTables, type BoundTables } from './enrichment-store.js';
import { orderByLevels, type Cell, type CellTable } from '../core/cells.js';
import type { CellCount, RunInfo, TrialStore } from '../live/store/store.js';
import { UserError } from '../core/errors.js';
import { controlCharacter, levelFault } from './reader-rules.js';
import { foldCollision, foldExtraFactors } from './trials.js';
import { sourcesMsg } from './messages.js';

/**
 * The levels and factors of one cell as samegame stores them: strings without control characters
 * (a damaged store); names by the rule of every reader (reader-rules.ts), model and game not the
 * tables' reserved names (refused as any reader refuses them).
 */
function checkCount(c: Pick<CellCount, 'model' | 'game' | 'framing' | 'factors'>): void {
  const where = `cell ${JSON.stringify([c.model, c.game, c.framing])}`;
  const f: unknown = c.factors;
  if (f === null || typeof f !== 'object' || Array.isArray(f)) throw new StoreFault(`${where}: factors are not a JSON object`);
  const named: [string, unknown][] = [['model', c.model], ['game', c.game], ['framing', c.framing], ...Object.entries(f)];
  for (const [k, v] of named) {
    if (typeof v !== 'string' || v === '') throw new StoreFault(`${where}: ${k} is not a name`);
    const bad = controlCharacter(v);
    if (bad !== undefined) throw new StoreFault(`${where}: ${k} contains the control character ${bad}`);
    const fault = levelFault(k, v);
    if (fault !== undefined) throw new StoreRefusal(`${where}: ${k} ${fault}`);
  }
}

/** The levels of every cell of the runs (all runs when none is given): what export checks before it writes a trial. */
export function checkStoreLevels(store: TrialStore, runId?: number): void {
  for (const r of store.runs()) if (runId === undefined || r.id === runId) store.cellCounts(r.id).forEach(checkCount);
}

/** First-token probabilities are probabilities. */
function checkProbabilities(cell: string, values: Float64Array): void {
  for (const p of values) if (!(p >= 0 && p <= 1)) throw new StoreFault(`${cell}: p_cooperate = ${p} is outside [0, 1]`);
}

/** Per-cell tallies kept beside the cell table: what was valid, invalid and failed. */
export interface CellTally {
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly factors: Readonly<Record<string, string>>;
  readonly valid: number;
  readonly invalid: number;
  readonly error: number;
  /** 'logprobs' when the cell's observations are per-trial probabilities. */
  readonly scoring: 'sample' | 'logprobs';
}

export interface StoreTable {
  readonly run: RunInfo;
  /** Every factor of the cells: model, game, framing and the extra factors. */
  readonly table: CellTable;
  /**
   * The model × game × framing table the two-framing analyses read: each level combination of the
   * extra factors a game of its own ("G [cond=x]"), folded as the per-trial reader folds them
   * (trials.ts foldExtraFactors); `table` itself when the run has no extra factors.
   */
  readonly folded: CellTable;
  readonly tallies: readonly CellTally[];
  /** Factor names beyond model, game, framing (e.g. condition, world, format). */
  readonly extraFactors: readonly string[];
  /** A context-enrichment run's (runKind) imputation bounds of first-token scoring, aligned with `table` (enrichment-store.ts). */
  readonly imputation?: BoundTables;
  /** An adaptive run's (a design with a stop rule) rule and every unit's status at its stopping look (adaptive-store.ts). */
  readonly adaptive?: AdaptiveRun;
  /** The run's answered comprehension probes (docs/methods.md §18c), apart from its cells; absent when it asked none. */
  readonly probes?: readonly ScoredProbe[];
}

/** Design order of the levels: tables follow it (and per-model means sum in the same order). */
export interface CellOrder {
  readonly models: readonly string[];
  readonly games: readonly string[];
  readonly framings: readonly string[];
}

/** Cells in design order; levels the design does not list come after, in the store's order. */
function sortCounts(counts: CellCount[], order?: CellOrder): CellCount[] {
  if (!order) return counts;
  return orderByLevels(counts, [[(c) => c.model, order.models], [(c) => c.game, order.games], [(c) => c.framing, order.framings]]);
}

/** The design a run stored, read and checked in one place (live/store/stored-design.ts), for the analyses. */
export { readableDesign, storedDesign, type StoredDesign } from '../live/store/stored-design.js';
export type { BoundTables } from './enrichment-store.js';

/** What a stored run is: one-shot cells (two-framing), repeated play, or a context-enrichment run (recorded with the run). */
export type { RunKind } from '../live/store/run-kind.js';

/** The factors a context-enrichment run's cells carry beyond model, game and framing. */
export const ENRICHMENT_FACTORS = ['condition', 'world', 'format'] as const;

/**
 * The kind of a stored run as the analyses read it, here only: the kind recorded with the run
 * (runs.kind; for a store older than the column, what live/store/run-kind.ts infers from the
 * stored design, as the store's migration does). A run otherwise one-shot whose cells carry
 * condition, world and format is a context-enrichment run (`cellFactors` is read only then): its
 * analysis says so when the stored design does not register the enrichment.
 */
export function runKind(run: RunInfo, cellFactors: () => readonly string[]): RunKind {
  const kind = storedRunKind(run.kind, run.designJson);
  if (kind !== 'one-shot') return kind;
  const factors = cellFactors();
  return ENRICHMENT_FACTORS.every((f) => factors.includes(f)) ? 'enrichment' : 'one-shot';
}

/** True when the run is repeated play (known without reading its cells). */
export const isRepeatedRun = (run: RunInfo): boolean => runKind(run, () => []) === 'repeated';

/**
 * The run to analyze: the one given by id, else the store's only or latest run. A repeated game's
 * run is refused with one line: the one-shot tables would pool its rounds and seats.
 */
export function chooseOneShotRun(store: TrialStore, path: string, runId?: number): RunInfo {
  const r = chooseRun(store, path, runId);
  if (isRepeatedRun(r)) throw new UserError(sourcesMsg.repeatedRun(path, r.id));
  return r;
}

/** The run given by id, else the store's only or latest run, whatever its kind. */
export function chooseRun(store: TrialStore, path: string, runId?: number): RunInfo {
  const runs = store.runs();
  if (runs.length === 0) throw new UserError(sourcesMsg.emptyStore(path));
  if (runId === undefined) return runs[runs.length - 1];
  const r = runs.find((x) => x.id === runId);
  if (!r) throw new UserError(sourcesMsg.noSuchRun(path, runId, runs.map((x) => x.id)));
  return r;
}

/**
 * The run a sealed store's plan speaks of (the sealed design's), else the store's latest (a store without a seal, or whose
 * sealed design never ran); `runId` given: that run, a store without it refused in one line naming its runs (chooseRun).
 * Undefined for a store without runs.
 */
export function sealedRun(store: TrialStore, path: string, seal: { readonly designHash: string } | undefined, runId?: number): RunInfo | undefined {
  if (runId !== undefined) return chooseRun(store, path, runId);
  return (seal && store.findRun(seal.designHash)) ?? store.runs().at(-1);
}

/**
 * Valid trials of a run → the same CellTable the reconstructed path uses (docs/architecture.md, "swap in").
 * A cell scored by first-token log-probabilities holds its per-trial probabilities; a sampled
 * cell holds x valid C of n valid trials. Tallies come from SQL (GROUP BY), and probabilities are
 * streamed a cell at a time, so memory grows with the number of cells, not of trials. A
 * context-enrichment run's imputation bounds are read with it, so its analysis reads no store.
 */
export function storeTable(store: TrialStore, run: RunInfo, order?: CellOrder): StoreTable {
  const counts: CellCount[] = sortCounts(store.cellCounts(run.id), order);
  counts.forEach(checkCount);
  const keyOf = (c: { model: string; game: string; framing: string; factors: Readonly<Record<string, string>> }) =>
    JSON.stringify([c.model, c.game, c.framing, c.factors]);
  const probs = new Map<string, Float64Array>();
  for (const p of store.cellProbabilities(run.id)) {
    checkProbabilities(`cell ${JSON.stringify([p.model, p.game, p.framing])}`, p.values);
    probs.set(keyOf(p), p.values);
  }
  const extra = [...new Set(counts.flatMap((c) => Object.keys(c.factors)))].filter((f) => !['model', 'game', 'framing'].includes(f)).sort();
  const factors = ['model', 'game', 'framing', ...extra];
  const byLogprobs = scoredByLogprobs(run);
  const cells: Cell[] = [];
  const tallies: CellTally[] = [];
  for (const c of counts) {
    const values = probs.get(keyOf(c));
    const key: Record<string, string> = { model: c.model, game: c.game, framing: c.framing };
    for (const f of extra) key[f] = c.factors[f] ?? '';
    if ((byLogprobs || c.scored > 0) && c.unscored > 0) throw new StoreRefusal(`${cellName(c)}: ${sourcesMsg.unscoredLogprobsWhat(c.unscored)}`);
    const obs = values && values.length > 0
      ? { kind: 'prob' as const, values }
      : { kind: 'binary' as const, n: c.validC + c.validD, x: c.validC };
    const valid = obs.kind === 'prob' ? values!.length : c.validC + c.validD;
    tallies.push({ model: c.model, game: c.game, framing: c.framing, factors: c.factors, valid, invalid: c.invalid, error: c.error,
      scoring: obs.kind === 'prob' ? 'logprobs' : 'sample' });
    if (valid > 0) cells.push({ key, obs, invalid: c.invalid });
  }
  const table: CellTable = { factors, cells };
  const folded = foldStoreTable(table, extra);
  const enrichment = runKind(run, () => extra) === 'enrichment' ? { imputation: boundTables(store, run.id, table) } : {};
  const adaptive = readAdaptiveRun(store, run);
  const probes = scoredProbes(storedProbes(store, run.id));
  return { run, table, folded, tallies, extraFactors: extra, ...enrichment, ...(adaptive ? { adaptive } : {}), ...(probes.length ? { probes } : {}) };
}

const cellName = (c: Pick<CellCount, 'model' | 'game' | 'framing'>) => `cell ${JSON.stringify([c.model, c.game, c.framing])}`;

/** True when the run's design, as stored, scores by first-token log-probabilities (a design not one samegame wrote: sampled). */
const scoredByLogprobs = (run: RunInfo): boolean => readableDesign(run)?.scoring === 'logprobs';

/** The table with its extra factors folded into the game; two cells that would fold into one are refused, naming both. */
function foldStoreTable(table: CellTable, extra: readonly string[]): CellTable {
  const keys = table.cells.map((c) => c.key);
  const hit = foldCollision(keys, extra);
  if (hit) {
    const describe = (k: Readonly<Record<string,
      string>>) => `${cellName({ model: k.model, game: k.game, framing: k.framing })} with ${extra.map((f) => `${f} = ${JSON.stringify(k[f])}`).join(', ')}`;
    throw new StoreRefusal(sourcesMsg.foldCollisionWhat(describe(keys[hit.second]), describe(keys[hit.first]), hit.game));
  }
  return foldExtraFactors(table);
}
