import type { Cell, CellTable, Observations } from '../core/cells.js';
import { UserError } from '../core/errors.js';
import { msg } from '../core/messages/common.js';
import { cellKeyOf, checkPlannedFramings, FACTORS } from './rates-csv.js';
import { framingPair, framingsOf, type FramingPair } from './framing-pair.js';
import { checkLevel } from './reader-rules.js';
import { trialRecords, type TrialRecord } from './trial-records.js';
import { TRIAL_STATUSES, type ExportOrder } from './export-layout.js';
import { inStableOrder } from './cell-order.js';
import { byText } from '../core/aggregates.js';
import { sourcesMsg } from './messages.js';
import { foldCollision, foldKey } from './fold.js';

export { foldCollision, foldExtraFactors } from './fold.js';

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
  /** The design's order of the file's cells, given its SHA-256 (an export's sidecar); the cells are sorted where there is none. */
  readonly orderOf?: (sha256: string) => ExportOrder | undefined;
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
  /** The planned framing pair: the one given, else the one the data imply (framing-pair.ts). */
  readonly pair?: FramingPair;
  /** Read through a log format (src/sources/logs/): its name or description file, the files in order, the rounds kept. */
  readonly logs?: { readonly format: string; readonly files: readonly string[]; readonly rounds?: string; readonly shortMatches?: 'drop' | 'keep';
    readonly notes: readonly string[] };
  /** The planned cells the cell_count check holds the table to (CELL_GRIDS of the two-framing analysis): repeated play is "as-played". */
  readonly grid?: 'crossed' | 'as-played';
}

const MAX_VALUES = 50;
const PROBABILITY = /^\+?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

interface CellAcc {
  readonly line: number;
  readonly key: Record<string, string>;
  /** The outcome of the cell's rows (an exported file scores each cell by p_cooperate or by action). */
  readonly outcome: TrialOutcome;
  n: number;
  sum: number;
  readonly values: number[];
  readonly clusters: Map<string, { size: number; sum: number }>;
}

/** The row's outcome column: exactly one of action, cooperate, p_cooperate, the same on every row. */
function outcomeOf(file: string, r: TrialRecord, established: TrialOutcome | undefined): TrialOutcome {
  const present = OUTCOME_COLUMNS.filter((c) => r.has(c));
  if (present.length === 0) throw new UserError(established ? msg.missingField(file, r.line, established) : sourcesMsg.noOutcome(file, r.line));
  const first = established ?? present[0];
  const other = present.find((c) => c !== first);
  if (other) throw new UserError(sourcesMsg.mixedOutcomes(file, r.line, first, other));
  return first;
}

/** The decision's value: 1 for C, 0 for D; 0 or 1; or the probability of C. */
function outcomeValue(file: string, line: number, outcome: TrialOutcome, text: string): number {
  if (outcome === 'action') {
    const a = text.toUpperCase();
    if (a !== 'C' && a !== 'D') throw new UserError(sourcesMsg.unknownAction(file, line, text));
    return a === 'C' ? 1 : 0;
  }
  if (outcome === 'cooperate') {
    if (text !== '0' && text !== '1') throw new UserError(sourcesMsg.notBinary(file, line, text));
    return Number(text);
  }
  const p = Number(text);
  if (!PROBABILITY.test(text) || !(p >= 0 && p <= 1)) throw new UserError(sourcesMsg.notProbability(file, line, text));
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
      const v = r.text(c) ?? '';
      if (m.has(v) || m.size < MAX_VALUES) m.set(v, (m.get(v) ?? 0) + 1);
    }
  }
  columns(): ProvenanceColumn[] {
    return [...this.cols].map(([name, m]) => ({ name, values: [...m].map(([value, rows]) => ({ value, rows })) }));
  }
}

/**
 * A cell's observations in a stable order whatever the rows' order: clusters by id; probabilities in the rows' order in an
 * export (its rows are the store's, a cell's trials by rep), else sorted.
 */
function observations(acc: CellAcc, clustered: boolean, exported: boolean): Observations {
  if (clustered) {
    const cs = [...acc.clusters].sort(([a], [b]) => byText(a, b));
    return { kind: 'clustered', sizes: Float64Array.from(cs, ([, c]) => c.size), sums: Float64Array.from(cs, ([, c]) => c.sum), ids: cs.map(([id]) => id) };
  }
  if (acc.outcome === 'p_cooperate') return { kind: 'prob', values: exported ? Float64Array.from(acc.values) : Float64Array.from(acc.values).sort() };
  return { kind: 'binary', n: acc.n, x: acc.sum };
}

interface Layout {
  readonly outcome: TrialOutcome;
  readonly cluster?: string;
  readonly columns: readonly string[];
  readonly factors: readonly string[];
  /** A file samegame export wrote: only `ok` trials count, each scored by p_cooperate when it has one, else by action. */
  readonly exported: boolean;
}

/** Outcome and cluster columns, fixed by the first row (CSV: the header); the factors an export names, unless --factor. */
function layoutOf(file: string, r: TrialRecord, src: { columns: () => readonly string[]; header: boolean; exported: () => readonly string[] | undefined },
  opts: ReadTrialsOptions): Layout {
  const columns = src.columns();
  const exportedFactors = src.exported();
  const exported = exportedFactors !== undefined;
  const factors = opts.factors ?? exportedFactors ?? [];
  if (opts.cluster !== undefined && ([...FACTORS,
    ...OUTCOME_COLUMNS] as readonly string[]).includes(opts.cluster)) throw new UserError(sourcesMsg.clusterIsKnown(opts.cluster));
  const cluster = opts.cluster ?? (!exported && r.has('cluster') ? 'cluster' : undefined); // an export's columns are its factors
  if (src.header) {
    for (const col of [...FACTORS, ...(cluster ? [cluster] : []), ...factors]) {
      if (!columns.includes(col)) throw new UserError(msg.missingColumn(file, col, columns));
    }
  }
  const outcome = exported ? 'action' : outcomeOf(file, src.header ? { ...r, line: 1 } : r, undefined);
  for (const f of opts.factors ?? []) {
    if ([...FACTORS, ...OUTCOME_COLUMNS, cluster].includes(f)) throw new UserError(sourcesMsg.factorIsKnown(f));
  }
  return { outcome, cluster, columns, factors, exported };
}

/** The row's outcome column, and whether the row is a decision (an exported trial that is not `ok` is not). */
function rowOutcome(file: string, r: TrialRecord, lay: Layout): TrialOutcome | undefined {
  if (!lay.exported) return outcomeOf(file, r, lay.outcome);
  const status = r.get('status');
  if (status === undefined) throw new UserError(msg.missingField(file, r.line, 'status'));
  if (!(TRIAL_STATUSES as readonly string[]).includes(status)) throw new UserError(sourcesMsg.unknownStatus(file, r.line, status, TRIAL_STATUSES));
  if (status !== 'ok') return undefined;
  return r.get('p_cooperate') !== undefined ? 'p_cooperate' : 'action';
}

/** The row's cell key: model, game, framing (reader-rules names), then the factors, each a name. */
function keyOf(file: string, r: TrialRecord, lay: Layout, need: (col: string) => string): Record<string, string> {
  const key: Record<string, string> = { ...cellKeyOf(file, r.line, need) };
  for (const f of lay.factors) {
    key[f] = need(f);
    checkLevel(file, r.line, f, key[f]);
  }
  return key;
}

/** `invalid`: an exported file's invalid trials per cell (status `invalid`), kept for the worst-case bounds (methods §3.1). */
function addRecord(file: string, r: TrialRecord, lay: Layout, cells: Map<string, CellAcc>, invalid: Map<string, number>): void {
  const need = (col: string) => {
    const v = r.get(col);
    if (v === undefined) throw new UserError(msg.missingField(file, r.line, col));
    return v;
  };
  if (lay.cluster === undefined && !lay.exported && r.has('cluster')) throw new UserError(sourcesMsg.clusterNotOnFirstRow(file, r.line, 'cluster'));
  const outcome = rowOutcome(file, r, lay);
  if (outcome === undefined && r.get('status') === 'invalid') { const k = JSON.stringify(Object.values(keyOf(file, r, lay, need))); invalid.set(k,
    (invalid.get(k) ?? 0) + 1); }
  if (outcome === undefined) return;
  const key = keyOf(file, r, lay, need);
  const value = outcomeValue(file, r.line, outcome, need(outcome));
  const clusterId = lay.cluster === undefined ? '' : need(lay.cluster);
  const id = JSON.stringify(Object.values(key));
  let acc = cells.get(id);
  if (!acc) { acc = { line: r.line, key, outcome, n: 0, sum: 0, values: [], clusters: new Map() }; cells.set(id, acc); }
  if (acc.outcome !== outcome) throw new UserError(sourcesMsg.mixedScoring(file, r.line, cellName(key), acc.line, acc.outcome, outcome));
  acc.n++;
  acc.sum += value;
  if (outcome === 'p_cooperate' && lay.cluster === undefined) acc.values.push(value);
  if (lay.cluster !== undefined) {
    const c = acc.clusters.get(clusterId);
    if (c) { c.size++; c.sum += value; } else acc.clusters.set(clusterId, { size: 1, sum: value });
  }
}

/** A cell as people read it in messages: "A" / "G" / "business". */
const cellName = (key: Readonly<Record<string, string>>) => Object.values(key).map((v) => JSON.stringify(v)).join(' / ');

/** A cluster bootstrap resamples clusters within each cell: a cell of one cluster would have an interval of one point. */
function checkClusters(file: string, accs: readonly CellAcc[], column: string): void {
  for (const a of accs) {
    if (a.clusters.size < 2) throw new UserError(sourcesMsg.oneCluster(file, a.line, column, cellName(a.key), [...a.clusters.keys()][0]));
  }
}

/** An exported file holds the trials of one run: `analyze` reads one run, and so does `--trials`. */
function checkOneRun(file: string, r: TrialRecord, lay: Layout, first: { run?: string }): void {
  if (!lay.exported) return;
  const run = r.get('run');
  first.run ??= run;
  if (run !== first.run) throw new UserError(sourcesMsg.severalRuns(file, r.line, first.run ?? '', run ?? ''));
}

/** Read and validate a per-trial file (CSV or JSONL by extension) into a cell table. */
export function readTrials(path: string, opts: ReadTrialsOptions = {}): TrialsInput {
  const file = opts.displayPath ?? path;
  const src = trialRecords(path, file);
  const cells = new Map<string, CellAcc>();
  const invalid = new Map<string, number>();
  let lay: Layout | undefined;
  let prov: Provenance | undefined;
  const run = {};
  for (const r of src.records) {
    if (!lay) {
      lay = layoutOf(file, r, src, opts);
      prov = new Provenance(new Set([...FACTORS, ...OUTCOME_COLUMNS, ...(lay.cluster ? [lay.cluster] : []), ...lay.factors]));
    }
    checkOneRun(file, r, lay, run);
    addRecord(file, r, lay, cells, invalid);
    prov!.add(r, lay.columns);
  }
  if (!lay || cells.size === 0) throw new UserError(msg.emptyTable(file));
  const order = opts.orderOf?.(src.sha256);
  const accs = inStableOrder([...cells.values()], (a) => a.key, [...FACTORS, ...lay.factors], order);
  const trials = accs.reduce((s, a) => s + a.n, 0);
  const extra = [...lay.factors];
  if (lay.cluster !== undefined) checkClusters(file, accs, lay.cluster);
  checkFolding(file, accs, extra);
  const planned = accs.map((a) => ({ line: a.line, key: foldKey(a.key, extra) }));
  const pair = framingPair(framingsOf(planned), opts.base, opts.alt);
  checkPlannedFramings(file, planned, pair.base, pair.alt);
  const clustered = lay.cluster !== undefined;
  const invalidOf = (a: CellAcc) => (lay!.exported ? { invalid: invalid.get(JSON.stringify(Object.values(a.key))) ?? 0 } : {});
  const table: CellTable = { factors: [...FACTORS, ...extra], cells: accs.map((a): Cell => ({ key: a.key, obs: observations(a, clustered, lay!.exported),
    ...invalidOf(a) })) };
  const probs = accs.filter((a) => a.outcome === 'p_cooperate').length;
  const what = probs === accs.length ? 'per-trial probabilities' : probs === 0 ? 'per-trial decisions' : 'per-trial decisions and probabilities';
  return {
    path: file, sha256: src.sha256, table, extraFactors: extra, outcome: probs > 0 ? 'p_cooperate' : lay.outcome, trials,
    clusters: accs.reduce((s, a) => s + a.clusters.size, 0), firstLines: accs.map((a) => a.line),
    kind: lay.cluster ? `${what}, clustered by ${lay.cluster}` : what,
    clusterColumn: lay.cluster, provenanceColumns: prov!.columns(), pair,
  };
}

/** Two cells that fold into one game would be merged into one row of every table: refused, naming both. */
function checkFolding(file: string, accs: readonly CellAcc[], extra: readonly string[]): void {
  const hit = foldCollision(accs.map((a) => a.key), extra);
  if (!hit) return;
  const describe = (a: CellAcc) => `${JSON.stringify(a.key.game)} with ${extra.map((f) => `${f} = ${JSON.stringify(a.key[f])}`).join(', ')}`;
  // named at the later of the two rows
  const [first, a] = [accs[hit.first], accs[hit.second]].sort((x, y) => x.line - y.line);
  throw new UserError(sourcesMsg.foldCollision(file, a.line, describe(a), describe(first), first.line, hit.game));
}
