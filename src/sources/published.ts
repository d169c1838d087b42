/**
 * Published values to reproduce (`--expect FILE`): one number of a paper's table per row, with
 * columns `table,model,game,statistic,published` and any further columns kept as provenance.
 * The published number is kept as the text that was printed, so its precision (the number of
 * decimals written, trailing zeros included: "0.150" has 3, "0.15" has 2) is known exactly.
 */
import { UserError } from '../core/errors.js';
import { at, msg } from '../core/messages/common.js';
import { parseDecimal, unitsOf, type DecimalText } from '../core/decimal.js';
import { splitRows } from './rates-csv.js';
import { BUILTIN_COLUMNS, table3Statistics, withInterval } from '../stats/table3.js';
import { checkColumnNames, nameFault, readInputFile } from './reader-rules.js';
import { sourcesMsg } from './messages.js';

/** The published values of the shipped Same Game, Different Story data (Tables 2 and 3), relative to the package root. */
export const SHIPPED_PUBLISHED = 'data/lore-heydari-2024/published.csv';

/**
 * The tables a published value can belong to, each with its statistics (column names of the table
 * samegame writes; Table 3's from its column spec, stats/table3.ts, read when asked).
 */
export const PUBLISHED_TABLES: { readonly table2: readonly string[]; readonly table3: readonly string[]; readonly family: readonly string[] } = {
  table2: ['base_rate', 'base_count', 'alt_rate', 'alt_count', 'difference'],
  get table3() { return table3Statistics(); },
  // the family robustness table's columns: R and its interval (FAMILY_COLUMNS of analyses/two-framing/tables.ts)
  family: withInterval(BUILTIN_COLUMNS.robustness.column),
};
export type PublishedTable = keyof typeof PUBLISHED_TABLES;

export const PUBLISHED_COLUMNS = ['table', 'model', 'game', 'statistic', 'published'] as const;
/** An optional column after the required ones: the replicates the publication's bootstrap used for that number. */
export const REPS_COLUMN = 'reps';
/** An optional column: the interval method of the publication for that number (percentile or bca). */
export const METHOD_COLUMN = 'method';
export const PUBLISHED_METHODS = ['percentile', 'bca'] as const;
export type PublishedMethod = typeof PUBLISHED_METHODS[number];

export interface PublishedRow {
  readonly line: number;
  readonly table: PublishedTable;
  readonly model: string;
  /** Empty for per-model rows (table3, and family rows of a model or the pooled value). */
  readonly game: string;
  readonly statistic: string;
  /** The number as printed; `units` and `value` carry its sign. */
  readonly published: DecimalText;
  /** Bootstrap replicates behind the published number (column `reps`); undefined when not given. */
  readonly reps?: number;
  /** The publication's interval method for the number (column `method`); undefined when not given. */
  readonly method?: PublishedMethod;
  readonly provenance: Readonly<Record<string, string>>;
}

export interface PublishedValues {
  /** As shown in messages and reports. */
  readonly path: string;
  readonly sha256: string;
  readonly rows: readonly PublishedRow[];
  readonly provenanceColumns: readonly string[];
}

/** A signed plain decimal as printed ("-0.010", "26", "0.150"); undefined when it is not one. */
export function parseSignedDecimal(text: string): DecimalText | undefined {
  const t = text.trim();
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(t)) return undefined;
  const negative = t.startsWith('-');
  const d = parseDecimal(negative ? t.slice(1) : t)!;
  return negative ? { text: t, value: -d.value, decimals: d.decimals, units: (-unitsOf(d)).toString() } : d;
}

const isTable = (t: string): t is PublishedTable => Object.prototype.hasOwnProperty.call(PUBLISHED_TABLES, t);

/** One data row → a PublishedRow; the first problem ends the read with file, line and field. */
function parseRow(file: string, line: number, get: (col: string) => string): Omit<PublishedRow, 'provenance'> {
  const table = get('table');
  if (table === '') throw new UserError(msg.missingField(file, line, 'table'));
  if (!isTable(table)) throw new UserError(sourcesMsg.unknownTable(file, line, table, Object.keys(PUBLISHED_TABLES)));
  const model = get('model');
  if (model === '') throw new UserError(msg.missingField(file, line, 'model'));
  let game = get('game');
  for (const [field, value] of [['model', model], ['game', game]] as const) {
    const fault = value === '' ? undefined : nameFault(value); // names as every reader takes them ("Pooled" and "All" are rows here)
    if (fault !== undefined) throw new UserError(at(file, line, field, fault));
  }
  if (table === 'table2' && game === '') throw new UserError(sourcesMsg.gameNeeded(file, line, table));
  if (table === 'table3' && game !== '') throw new UserError(sourcesMsg.gameNotAllowed(file, line, table, game));
  if (table === 'family' && game === 'All') game = ''; // family-robustness.csv writes per-model rows as game "All"
  const statistic = get('statistic');
  if (statistic === '') throw new UserError(msg.missingField(file, line, 'statistic'));
  const known: readonly string[] = PUBLISHED_TABLES[table];
  if (!known.includes(statistic)) throw new UserError(sourcesMsg.unknownStatistic(file, line, table, statistic, known));
  const text = get('published');
  if (text === '') throw new UserError(msg.missingField(file, line, 'published'));
  const published = parseSignedDecimal(text);
  if (published === undefined) {
    const v = Number(text);
    throw new UserError(Number.isFinite(v) ? sourcesMsg.notPlainNumber(file, line, text) : msg.notANumber(file, line, 'published', text));
  }
  return { line, table, model, game, statistic, published };
}

/** The `reps` field: empty (not given) or a whole number ≥ 1. */
function parseReps(file: string, line: number, text: string): number | undefined {
  if (text === '') return undefined;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && Number.isSafeInteger(n))) throw new UserError(sourcesMsg.badReps(file, line, text));
  return n;
}

/** The `method` field: empty (not given), percentile or bca. */
function parseMethod(file: string, line: number, text: string): PublishedMethod | undefined {
  if (text === '') return undefined;
  const m = PUBLISHED_METHODS.find((x) => x === text.toLowerCase());
  if (m === undefined) throw new UserError(sourcesMsg.badMethod(file, line, text));
  return m;
}

/** Parse the text of a published-values file (`file` names it in messages). */
export function parsePublished(text: string, file: string): Omit<PublishedValues, 'sha256'> {
  const raw = splitRows(text.replace(/^\uFEFF/, ''), file);
  if (raw.length === 0) throw new UserError(msg.emptyTable(file));
  const header = raw[0].fields.map((h) => h.trim());
  checkColumnNames(file, 1, header, 'header');
  PUBLISHED_COLUMNS.forEach((col, i) => {
    if (header[i] !== col) throw new UserError(sourcesMsg.badHeader(file, header[i] ?? col, PUBLISHED_COLUMNS.join(','), header));
  });
  const provenanceColumns = header.slice(PUBLISHED_COLUMNS.length).filter((c) => c !== REPS_COLUMN && c !== METHOD_COLUMN);
  if (raw.length === 1) throw new UserError(msg.emptyTable(file));
  const rows: PublishedRow[] = [];
  const firstLine = new Map<string, number>();
  for (const { line, fields } of raw.slice(1)) {
    if (fields.length !== header.length) throw new UserError(msg.wrongFieldCount(file, line, fields.length, header.length));
    const get = (col: string) => fields[header.indexOf(col)].trim();
    const row = parseRow(file, line, get);
    const key = JSON.stringify([row.table, row.model, row.game, row.statistic]);
    const first = firstLine.get(key);
    if (first !== undefined) throw new UserError(sourcesMsg.duplicateRow(file, line, first, key));
    firstLine.set(key, line);
    const provenance: Record<string, string> = {};
    for (const c of provenanceColumns) provenance[c] = get(c);
    const reps = header.includes(REPS_COLUMN) ? parseReps(file, line, get(REPS_COLUMN)) : undefined;
    const method = header.includes(METHOD_COLUMN) ? parseMethod(file, line, get(METHOD_COLUMN)) : undefined;
    rows.push({ ...row, ...(reps === undefined ? {} : { reps }), ...(method === undefined ? {} : { method }), provenance });
  }
  return { path: file, rows, provenanceColumns };
}

/** Read and validate a published-values file; `displayPath` names it in messages (default: the path). */
export function readPublished(path: string, displayPath = path): PublishedValues {
  const { text, sha256 } = readInputFile(path, displayPath);
  return { ...parsePublished(text, displayPath), sha256 };
}
