/**
 * A Parquet export read back (`export --format parquet`, then `reproduce --trials DIR` or, for repeated play, `analyze
 * --trials DIR --format data/log-formats/samegame-export.yaml`). DuckDB checks the files — the export's columns and types,
 * then every row: names, statuses, actions, probabilities, one run; the first problem named by file, row (from 1, in file
 * order) and field — and writes their trials as the CSV export writes them (the same columns), which the per-trial and log
 * readers then read as they read a CSV export (the cells in the design's order its sidecar records, else sorted). The reading is
 * synchronous (every command reads a per-trial file so): the engine runs in a child process (sync-query.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { UserError } from '../../core/errors.js';
import { levelFault } from '../../core/names-rule.js';
import { EXPORT_PLAY, EXPORT_TAIL, PARQUET_PARTITIONS, PARQUET_TYPES, TRIAL_STATUSES, exportedCsvFactors, type ExportOrder } from '../export-layout.js';
import { sidecarOrder } from '../origin.js';
import { splitRows } from '../rates-csv.js';
import { ident, lit } from '../engine/compile.js';
import { exportFiles, exportSha256, type ExportFiles } from './files.js';
import { parquetMsg } from './messages.js';
import { querySync, type Row } from './sync-query.js';
import type { ProvenanceColumn } from '../trials.js';


/** The Parquet physical type of each DuckDB type the export writes (text is BYTE_ARRAY). */
const PHYSICAL: Readonly<Record<string, string>> = { BIGINT: 'INT64', INTEGER: 'INT32', DOUBLE: 'DOUBLE', BOOLEAN: 'BOOLEAN' };
const physicalOf = (column: string) => PHYSICAL[PARQUET_TYPES[column] ?? ''] ?? 'BYTE_ARRAY';

/** The export's layout, read off its files' schemas: the CSV header it stands for, its factors and whether it is repeated play. */
interface Layout { readonly header: readonly string[]; readonly factors: readonly string[]; readonly repeated: boolean }

/** Every file holds the columns of an export (the partition columns in its folders), of the export's types, the same in every file. */
function layoutOf(e: ExportFiles, display: string): Layout {
  const rows = query(e, display, [`SELECT file_name, name, type, num_children FROM parquet_schema(${fileList(e)})`])[0];
  const byFile = new Map<string, Row[]>();
  for (const r of rows) {
    const file = resolve(e.root, String(r.file_name));
    if (r.type !== null && r.type !== undefined) byFile.set(file, [...(byFile.get(file) ?? []), r]);
  }
  let first: { file: string; columns: string } | undefined;
  let layout: Layout | undefined;
  for (const file of e.files) {
    const cols = byFile.get(file) ?? [];
    const names = cols.map((c) => String(c.name));
    const header = [...names.slice(0, 2), ...PARQUET_PARTITIONS, ...names.slice(2)];
    const factors = exportedCsvFactors(header);
    if (factors === undefined || names[0] !== 'run' || names[1] !== 'design' || names[2] !== 'rep') {
      const want = ['run', 'design', 'rep', ...EXPORT_TAIL];
      throw new UserError(parquetMsg.notAnExport(file, want.find((c, i) => (i < 3 ? names[i] !== c : !names.includes(c))) ?? names[2] ?? 'rep'));
    }
    for (const c of cols) {
      const want = physicalOf(String(c.name));
      if (String(c.type) !== want || Number(c.num_children ?? 0) > 0) throw new UserError(parquetMsg.wrongType(file, String(c.name), String(c.type), want));
    }
    if (first === undefined) first = { file, columns: names.join('\n') };
    else if (first.columns !== names.join('\n')) throw new UserError(parquetMsg.otherColumns(file, first.file));
    layout ??= { header, factors, repeated: EXPORT_PLAY.every((c) => names.includes(c)) };
  }
  return layout!;
}

/** The run of the first row (files in order, rows in file order). */
const FIRST_RUN = '(SELECT run FROM sg_trials ORDER BY sg_file, file_row_number LIMIT 1)';

type Check = readonly [field: string, condition: string, what: (value: string, firstRun: string) => string];

const empty = (c: string) => `(${ident(c)} IS NULL OR trim(CAST(${ident(c)} AS VARCHAR)) = '')`;

/** The rules every row is held to, in the order a row is checked (the first broken one is named). */
function rowChecks(l: Layout): Check[] {
  const missing = () => parquetMsg.missing();
  const ok = `status = 'ok'`;
  const named = [...PARQUET_PARTITIONS, ...l.factors, ...(l.repeated ? ['match', 'opponent_id'] : [])];
  return [
    ['run', 'run IS NULL', missing],
    ['run', `run <> ${FIRST_RUN}`, (v, first) => parquetMsg.severalRuns(first, v)],
    ...named.map((c): Check => [c, empty(c), missing]),
    ...(l.repeated ? [['round', 'round IS NULL OR round < 1', parquetMsg.notRound] as Check, ['seat', 'seat IS NULL OR seat NOT IN (1, 2)',
      parquetMsg.notSeat] as Check] : []),
    ['status', empty('status'), missing],
    ['status', `status NOT IN (${TRIAL_STATUSES.map(lit).join(', ')})`, (v) => parquetMsg.notStatus(v, TRIAL_STATUSES)],
    ['p_cooperate', `${ok} AND p_cooperate IS NOT NULL AND NOT (p_cooperate >= 0 AND p_cooperate <= 1)`, parquetMsg.notProbability],
    ['action', `${ok} AND p_cooperate IS NULL AND ${empty('action')}`, missing],
    ['action', `${ok} AND p_cooperate IS NULL AND upper(trim(action)) NOT IN ('C', 'D')`, parquetMsg.notAction],
  ];
}

/**
 * The export's files as DuckDB reads them: relative to its folder, where the engine runs (query), so that a [, * or ? in the
 * folder's path is never read as a pattern; a file the engine names is resolve(root, name).
 */
const fileList = (e: ExportFiles) => `[${e.files.map((f) => lit(relative(e.root, f).split(sep).join('/'))).join(', ')}]`;
const query = (e: ExportFiles, display: string, statements: readonly string[]) => querySync(display, statements, { cwd: e.root });

const SOURCE = (e: ExportFiles) => `CREATE TEMP VIEW sg_trials AS SELECT * FROM read_parquet(${fileList(e)}, ` +
  "hive_partitioning = true, hive_types_autocast = false, filename = 'sg_file', file_row_number = true)";

/** The first row breaking a rule, or a level breaking the name rule (core/names-rule.ts): one line naming file, row and field. */
function checkRows(e: ExportFiles, display: string, l: Layout): void {
  const checks = rowChecks(l);
  const rule = `CASE ${checks.map(([, cond], i) => `WHEN ${cond} THEN ${i}`).join(' ')} END`;
  const value = `CASE sg_rule ${checks.map(([f], i) => `WHEN ${i} THEN CAST(${ident(f)} AS VARCHAR)`).join(' ')} END`;
  const levels = [...PARQUET_PARTITIONS, ...l.factors, ...(l.repeated ? ['opponent_id'] : [])];
  const [bad, names] = query(e, display, [SOURCE(e),
    `SELECT sg_file, file_row_number + 1 AS sg_row, sg_rule, coalesce(${value}, '') AS sg_value, CAST(${FIRST_RUN} AS VARCHAR) AS sg_first ` +
      `FROM (SELECT *, ${rule} AS sg_rule FROM sg_trials) ` +
      'WHERE sg_rule IS NOT NULL ORDER BY sg_file, sg_row LIMIT 1',
    levels.map((c) => `SELECT DISTINCT ${lit(c)} AS sg_field, CAST(${ident(c)} AS VARCHAR) AS sg_value FROM sg_trials`).join(' UNION ALL '),
  ]).slice(1);
  if (bad.length) {
    const [field, , what] = checks[Number(bad[0].sg_rule)];
    const at = bad[0];
    throw new UserError(parquetMsg.badRow(resolve(e.root, String(at.sg_file)), Number(at.sg_row), field, what(String(at.sg_value), String(at.sg_first))));
  }
  for (const n of names) {
    const field = String(n.sg_field), v = String(n.sg_value);
    const level = field === 'opponent_id' ? 'opponent' : (PARQUET_PARTITIONS as readonly string[]).includes(field) ? field : 'factor';
    const fault = levelFault(level, v);
    if (fault === undefined) continue;
    const [at] = query(e, display, [SOURCE(e), `SELECT sg_file, file_row_number + 1 AS sg_row FROM sg_trials WHERE ${ident(field)} = ${lit(v)} ` +
      'ORDER BY sg_file, sg_row LIMIT 1'])[1];
    throw new UserError(parquetMsg.badRow(resolve(e.root, String(at.sg_file)), Number(at.sg_row), field, fault));
  }
}

/** The CSV's order: cell by cell in the design's order (the sidecar's, levels it does not list after, by text; sorted without one), then rep. */
function csvOrder(l: Layout, order: ExportOrder | undefined): string {
  const lists: Readonly<Record<string, readonly string[]>> = order ? { model: order.models, game: order.games, framing: order.framings } : {};
  const ranked = PARQUET_PARTITIONS.flatMap((p) => [`coalesce(list_position([${(lists[p] ?? []).map(lit).join(', ')}]::VARCHAR[], ${p}), 2147483647)`, p]);
  return [...ranked, ...l.factors.map(ident), 'rep', ...(l.repeated ? ['match', 'round', 'seat'] : []), 'sg_file', 'file_row_number'].join(', ');
}

/** The export's trials written to `csv` as the CSV export writes them: its columns, in the CSV's order (a cell's trials by rep, the store's). */
function writeCsv(e: ExportFiles, display: string, l: Layout, csv: string, order: ExportOrder | undefined): void {
  const select = l.header.map((c) => (c === 'synthetic' ? `CASE WHEN synthetic THEN 'true' ELSE 'false' END AS synthetic` : ident(c))).join(', ');
  query(e, display, [SOURCE(e), `COPY (SELECT ${select} FROM sg_trials ORDER BY ${csvOrder(l, order)}) TO ${lit(csv)} ` +
    `(FORMAT csv, HEADER true, DELIMITER ',', QUOTE '"', ESCAPE '"')`]);
}

/**
 * A reader's failure at a line of the CSV made here ("DISPLAY:LINE: …"), said of the Parquet file and row (from 1, in file order)
 * the trial came from, as the checks above name them; any other failure as it is.
 */
function atParquetRow(err: UserError, e: ExportFiles, display: string, l: Layout, order: ExportOrder | undefined, csv: string): UserError {
  const prefix = `${display}:`;
  const m = err.message.startsWith(prefix) ? /^(\d+):/.exec(err.message.slice(prefix.length)) : null;
  if (!m) return err;
  const record = splitRows(readFileSync(csv, 'utf8'), display).findIndex((r) => r.line === Number(m[1]));
  if (record < 1) return err;
  const [at] = query(e, display, [SOURCE(e), `SELECT sg_file, file_row_number + 1 AS sg_row FROM sg_trials ORDER BY ${csvOrder(l, order)} ` +
    `LIMIT 1 OFFSET ${record - 1}`])[1];
  return new UserError(`${resolve(e.root, String(at.sg_file))}: row ${Number(at.sg_row)}${err.message.slice(prefix.length + m[1].length)}`, err.exitCode);
}

/** The export's `synthetic` column, as a per-trial file's provenance column (its values and their rows): what labels it when no sidecar does. */
export function exportSyntheticColumn(path: string, display: string): ProvenanceColumn {
  const e = exportFiles(path, display);
  const rows = query(e, display, [`SELECT CASE WHEN synthetic THEN 'true' ELSE 'false' END AS v, count(*) AS n FROM read_parquet(${fileList(e)}) ` +
    'GROUP BY v ORDER BY v'])[0];
  return { name: 'synthetic', values: rows.map((r) => ({ value: String(r.v), rows: Number(r.n) })) };
}

/** What a Parquet export read back gives its reader: the CSV of its trials, the export's SHA-256 and folder. */
export interface ExportCsv { readonly csv: string; readonly sha256: string; readonly root: string; readonly order?: ExportOrder }

/** Read a Parquet export (a folder, or a glob of its files) as the CSV export of the same trials: `fn` reads the CSV (a temporary file, removed after). */
export function withExportCsv<T>(path: string, display: string, fn: (e: ExportCsv) => T): T {
  const files = exportFiles(path, display);
  const layout = layoutOf(files, display);
  checkRows(files, display, layout);
  const sha256 = exportSha256(files);
  const dir = mkdtempSync(join(tmpdir(), 'samegame-parquet-read-'));
  try {
    const csv = join(dir, 'trials.csv');
    const order = sidecarOrder(files.root, sha256);
    writeCsv(files, display, layout, csv, order);
    try {
      return fn({ csv, sha256, root: files.root, order });
    } catch (err) {
      throw err instanceof UserError ? atParquetRow(err, files, display, layout, order, csv) : err;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
