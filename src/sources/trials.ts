import type { Cell, CellTable, Observations } from '../core/cells.js';
import { UserError } from '../core/errors.js';
import { msg } from '../core/messages/common.js';
import { trialsMsg } from '../core/messages/trials.js';
import { cellKeyOf, checkPlannedFramings, FACTORS } from './rates-csv.js';
import { trialRecords, type TrialRecord } from './trial-records.js';

/**
 * Per-trial input (--trials FILE): one row per decision, CSV or JSONL, → the same CellTable a
 * trial store gives (binary cells for C/D or 0/1 outcomes, probability cells for p_cooperate,
 * clustered cells when a cluster column groups dependent decisions), so every estimand works
 * unchanged. The first problem ends the read with one message naming file, line and field.
 */
export const OUTCOME_COLUMNS = ['action', 'cooperate', 'p_cooperate'] as const;
export type TrialOutcome = typeof OUTCOME_COLUMNS[number];

export interface ReadTrialsOptions {
  /** The two planned framings every model–game must have (default business, friend-sharing). */
  readonly base?: string;
  readonly alt?: string;
  /** Column grouping dependent decisions; default "cluster" when the file has one. */
  readonly cluster?: string;
  /** Further columns that become factors of the cell key. */
  readonly factors?: readonly string[];
  /** Name shown in messages (defaults to the path). */
  readonly displayPath?: string;
}

export interface ProvenanceColumn {
  readonly name: string;
  /** Distinct values with their row counts, first-appearance order (at most MAX_VALUES). */
  readonly values: readonly { readonly value: string; readonly rows: number }[];
}

export interface TrialsInput {
  readonly path: string;
  readonly sha256: string;
  /** Factors model, game, framing, then the --factor columns (as a store's extra factors). */
  readonly table: CellTable;
  readonly extraFactors: readonly string[];
  readonly outcome: TrialOutcome;
  readonly kind: string;
  readonly trials: number;
  /** The cluster column, when the bootstrap resamples clusters. */
  readonly clusterColumn?: string;
  readonly clusters: number;
  /** The line of each cell's first row, parallel to table.cells. */
  readonly firstLines: readonly number[];
  readonly provenanceColumns: readonly ProvenanceColumn[];
  /** Read through a log format (src/sources/logs/): its name or description file, the files in order, the rounds kept. */
  readonly logs?: { readonly format: string; readonly files: readonly string[]; readonly rounds?: string; readonly notes: readonly string[] };
}

const MAX_VALUES = 50;
const PROBABILITY = /^\+?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

interface CellAcc {
  readonly line: number;
  readonly key: Record<string, string>;
  n: number;
  sum: number;
  readonly values: number[];
  readonly clusters: Map<string, { size: number; sum: number }>;
}

/** The row's outcome column: exactly one of action, cooperate, p_cooperate, the same on every row. */
function outcomeOf(file: string, r: TrialRecord, established: TrialOutcome | undefined): TrialOutcome {
  const present = OUTCOME_COLUMNS.filter((c) => r.has(c));
  if (present.length === 0) throw new UserError(established ? msg.missingField(file, r.line, established) : trialsMsg.noOutcome(file, r.line));
  const first = established ?? present[0];
  const other = present.find((c) => c !== first);
  if (other) throw new UserError(trialsMsg.mixedOutcomes(file, r.line, first, other));
  return first;
}

/** The decision's value: 1 for C, 0 for D; 0 or 1; or the probability of C. */
function outcomeValue(file: string, line: number, outcome: TrialOutcome, text: string): number {
  if (outcome === 'action') {
    const a = text.toUpperCase();
    if (a !== 'C' && a !== 'D') throw new UserError(trialsMsg.unknownAction(file, line, text));
    return a === 'C' ? 1 : 0;
  }
  if (outcome === 'cooperate') {
    if (text !== '0' && text !== '1') throw new UserError(trialsMsg.notBinary(file, line, text));
    return Number(text);
  }
  const p = Number(text);
  if (!PROBABILITY.test(text) || !(p >= 0 && p <= 1)) throw new UserError(trialsMsg.notProbability(file, line, text));
  return p;
}

class Provenance {
  private readonly cols = new Map<string, Map<string, number>>();
  constructor(private readonly used: ReadonlySet<string>) {}
  add(r: TrialRecord, columns: readonly string[]): void {
    for (const c of columns) {
      if (this.used.has(c)) continue;
      let m = this.cols.get(c);
      if (!m) { m = new Map(); this.cols.set(c, m); }
      const v = r.get(c) ?? '';
      if (m.has(v) || m.size < MAX_VALUES) m.set(v, (m.get(v) ?? 0) + 1);
    }
  }
  columns(): ProvenanceColumn[] {
    return [...this.cols].map(([name, m]) => ({ name, values: [...m].map(([value, rows]) => ({ value, rows })) }));
  }
}

function observations(acc: CellAcc, outcome: TrialOutcome, clustered: boolean): Observations {
  if (clustered) {
    const cs = [...acc.clusters.values()];
    return { kind: 'clustered', sizes: Float64Array.from(cs, (c) => c.size), sums: Float64Array.from(cs, (c) => c.sum) };
  }
  if (outcome === 'p_cooperate') return { kind: 'prob', values: Float64Array.from(acc.values) };
  return { kind: 'binary', n: acc.n, x: acc.sum };
}

interface Layout { readonly outcome: TrialOutcome; readonly cluster?: string; readonly columns: readonly string[] }

/** Outcome and cluster columns, fixed by the first row (CSV: the header). */
function layoutOf(file: string, r: TrialRecord, columns: readonly string[], header: boolean, opts: ReadTrialsOptions): Layout {
  const cluster = opts.cluster ?? (r.has('cluster') ? 'cluster' : undefined);
  if (header) {
    for (const col of [...FACTORS, ...(cluster ? [cluster] : []), ...(opts.factors ?? [])]) {
      if (!columns.includes(col)) throw new UserError(msg.missingColumn(file, col));
    }
  }
  const outcome = outcomeOf(file, header ? { ...r, line: 1 } : r, undefined);
  for (const f of opts.factors ?? []) {
    if ([...FACTORS, ...OUTCOME_COLUMNS, cluster].includes(f)) throw new UserError(trialsMsg.factorIsKnown(f));
  }
  return { outcome, cluster, columns };
}

function addRecord(file: string, r: TrialRecord, lay: Layout, opts: ReadTrialsOptions, cells: Map<string, CellAcc>): void {
  const need = (col: string) => {
    const v = r.get(col);
    if (v === undefined) throw new UserError(msg.missingField(file, r.line, col));
    return v;
  };
  const base = cellKeyOf(file, r.line, need);
  const key: Record<string, string> = { ...base };
  for (const f of opts.factors ?? []) key[f] = need(f);
  outcomeOf(file, r, lay.outcome);
  const value = outcomeValue(file, r.line, lay.outcome, need(lay.outcome));
  const clusterId = lay.cluster === undefined ? '' : need(lay.cluster);
  const id = JSON.stringify(Object.values(key));
  let acc = cells.get(id);
  if (!acc) { acc = { line: r.line, key, n: 0, sum: 0, values: [], clusters: new Map() }; cells.set(id, acc); }
  acc.n++;
  acc.sum += value;
  if (lay.outcome === 'p_cooperate' && lay.cluster === undefined) acc.values.push(value);
  if (lay.cluster !== undefined) {
    const c = acc.clusters.get(clusterId);
    if (c) { c.size++; c.sum += value; } else acc.clusters.set(clusterId, { size: 1, sum: value });
  }
}

/** Read and validate a per-trial file (CSV or JSONL by extension) into a cell table. */
export function readTrials(path: string, opts: ReadTrialsOptions = {}): TrialsInput {
  const file = opts.displayPath ?? path;
  const src = trialRecords(path, file);
  const cells = new Map<string, CellAcc>();
  let lay: Layout | undefined;
  let prov: Provenance | undefined;
  let trials = 0;
  for (const r of src.records) {
    if (!lay) {
      lay = layoutOf(file, r, src.columns(), src.header, opts);
      prov = new Provenance(new Set([...FACTORS, ...OUTCOME_COLUMNS, ...(lay.cluster ? [lay.cluster] : []), ...(opts.factors ?? [])]));
    }
    addRecord(file, r, lay, opts, cells);
    prov!.add(r, lay.columns);
    trials++;
  }
  if (!lay || trials === 0) throw new UserError(msg.emptyTable(file));
  const accs = [...cells.values()];
  const extra = [...(opts.factors ?? [])];
  checkPlannedFramings(file, accs.map((a) => ({ line: a.line, key: foldKey(a.key, extra) })), opts.base ?? 'business', opts.alt ?? 'friend-sharing');
  const table: CellTable = {
    factors: [...FACTORS, ...extra],
    cells: accs.map((a): Cell => ({ key: a.key, obs: observations(a, lay!.outcome, lay!.cluster !== undefined) })),
  };
  const clusters = accs.reduce((s, a) => s + a.clusters.size, 0);
  const what = lay.outcome === 'p_cooperate' ? 'per-trial probabilities' : 'per-trial decisions';
  return {
    path: file, sha256: src.sha256, table, extraFactors: extra, outcome: lay.outcome, trials, clusters, firstLines: accs.map((a) => a.line),
    kind: lay.cluster ? `${what}, clustered by ${lay.cluster}` : what,
    clusterColumn: lay.cluster, provenanceColumns: prov!.columns(),
  };
}

/** A key with its extra factors folded into the game: "Stag Hunt [round=1]". */
function foldKey(key: Readonly<Record<string, string>>, extra: readonly string[]): Record<string, string> {
  if (extra.length === 0) return { model: key.model, game: key.game, framing: key.framing };
  return { model: key.model, game: `${key.game} [${extra.map((f) => `${f}=${key[f]}`).join('; ')}]`, framing: key.framing };
}

/**
 * The model × game × framing table the two-framing analysis reads: each level combination of the
 * extra factors becomes a game of its own ("Stag Hunt [round=1]"), so each is its own planned contrast.
 */
export function foldExtraFactors(table: CellTable): CellTable {
  const extra = table.factors.filter((f) => !(FACTORS as readonly string[]).includes(f));
  if (extra.length === 0) return table;
  return { factors: [...FACTORS], cells: table.cells.map((c) => ({ ...c, key: foldKey(c.key, extra) })) };
}
