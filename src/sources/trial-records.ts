import { createHash } from 'node:crypto';
import { UserError } from '../core/errors.js';
import { msg } from '../core/messages/common.js';
import { splitRows } from './rates-csv.js';
import { checkColumnNames, checkUtf8, inputChunks, MAX_LINE_CHARS, readInputFile } from './reader-rules.js';
import { parseJsonLine } from './json-line.js';
import { exportedCsvFactors, factorColumns, isExportedObject, isRepeatedExport } from './export-layout.js';
import { sourcesMsg } from './messages.js';

/** One row of a per-trial file: the line it starts on and its fields by column name (trimmed). */
export interface TrialRecord {
  readonly line: number;
  /**
   * The field's text where a name or a number belongs, or undefined when the row has no such
   * column / an empty value; a JSON object or array there is refused.
   */
  get(column: string): string | undefined;
  /** Any value as text (a JSON object or array written out): for provenance. */
  text(column: string): string | undefined;
  /** True when the row has the column (a CSV header column, a key of the JSONL object). */
  has(column: string): boolean;
}

export interface TrialRecords {
  readonly sha256: string;
  /** Columns of the CSV header, or of the first JSONL object, in order. */
  readonly columns: () => readonly string[];
  /** True for CSV: the columns are a header on line 1, checked before any row. */
  readonly header: boolean;
  /** The factor columns when the file is one `samegame export` wrote (known with the first record), else undefined. */
  readonly exported: () => readonly string[] | undefined;
  readonly records: Iterable<TrialRecord>;
}

/** CSV: a header row, then one row per decision (papaparse; quoted fields and newlines allowed). */
function csvRecords(path: string, file: string): TrialRecords {
  const { text, sha256 } = readInputFile(path, file);
  const raw = splitRows(text, file);
  if (raw.length < 2) throw new UserError(msg.emptyTable(file));
  const header = raw[0].fields.map((h) => h.trim());
  checkColumnNames(file, 1, header, 'header');
  const index = new Map(header.map((h, i) => [h, i]));
  function* records(): Iterable<TrialRecord> {
    for (const { line, fields } of raw.slice(1)) {
      if (fields.length !== header.length) throw new UserError(msg.wrongFieldCount(file, line, fields.length, header.length));
      const get = (column: string) => {
        const i = index.get(column);
        const v = i === undefined ? '' : fields[i].trim();
        return v === '' ? undefined : v;
      };
      yield { line, has: (column) => index.has(column), get, text: get };
    }
  }
  const exported = exportedCsvFactors(header);
  if (exported !== undefined && isRepeatedExport(header)) throw new UserError(sourcesMsg.repeatedExport(file));
  return { sha256, columns: () => header, header: true, exported: () => exported, records: records() };
}

/**
 * The lines of a file, read in chunks (a streaming line reader: memory grows with the longest
 * line, not the file), each with its 1-based number. Each chunk is searched for line ends once
 * and a line's pieces are joined once, so the time is linear in the file; a line longer than
 * MAX_LINE_CHARS is refused as soon as it passes the limit.
 */
function* lines(path: string, file: string, hash: ReturnType<typeof createHash>): Iterable<{ line: number; text: string }> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const decode = (chunk?: Buffer) => {
    try { return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode(); } catch {
      if (chunk) checkUtf8(chunk, file, line + 1);
      throw new UserError(sourcesMsg.notUtf8(file, line + 1));
    }
  };
  let pieces: string[] = [];
  let length = 0;
  let line = 0;
  const take = (s: string) => {
    length += s.length;
    if (length > MAX_LINE_CHARS) throw new UserError(sourcesMsg.lineTooLong(file, line + 1, MAX_LINE_CHARS));
    pieces.push(s);
  };
  const flush = () => { const t = pieces.join(''); pieces = []; length = 0; return { line: ++line, text: t }; };
  for (const chunk of inputChunks(path, file, hash)) {
    const s = decode(chunk);
    let start = 0;
    for (let nl = s.indexOf('\n'); nl >= 0; nl = s.indexOf('\n', start)) {
      take(s.slice(start, nl));
      yield flush();
      start = nl + 1;
    }
    if (start < s.length) take(s.slice(start));
  }
  take(decode());
  if (length > 0) yield flush();
}

/** A JSON value as field text: strings trimmed, numbers and booleans written out, null as missing. */
function fieldText(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * The fields of one JSONL object by column name. An object samegame export wrote has its
 * factors as an object: they become columns of their own, named as the CSV export names them.
 */
function jsonFields(o: Record<string, unknown>, exported: boolean): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  for (const [k, v] of Object.entries(o)) {
    if (exported && k === 'factors' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const keys = Object.keys(v);
      factorColumns(keys).forEach((c, i) => fields.set(c, (v as Record<string, unknown>)[keys[i]]));
    } else fields.set(k, v);
  }
  return fields;
}

function jsonRecord(file: string, line: number, fields: Map<string, unknown>): TrialRecord {
  return {
    line,
    has: (column) => fields.has(column),
    get(column) {
      const v = fields.get(column);
      if (typeof v === 'object' && v !== null) throw new UserError(sourcesMsg.notAName(file, line, column, Array.isArray(v) ? 'array' : 'object'));
      return fieldText(v);
    },
    text: (column) => fieldText(fields.get(column)),
  };
}

/** JSONL: one JSON object per line; blank lines are skipped. */
function jsonlRecords(path: string, file: string): TrialRecords {
  const hash = createHash('sha256');
  let first: string[] | undefined;
  let exported: string[] | undefined;
  function* records(): Iterable<TrialRecord> {
    for (const { line, text } of lines(path, file, hash)) {
      const t = (line === 1 ? text.replace(/^\uFEFF/, '') : text).trim();
      if (t === '') continue;
      const o = parseJsonLine(file, line, t);
      if (!first) {
        const f = o.factors;
        exported = isExportedObject(o) ? factorColumns(Object.keys(f as object)) : undefined;
        if (exported !== undefined && isRepeatedExport(Object.keys(o))) throw new UserError(sourcesMsg.repeatedExport(file));
      }
      const fields = jsonFields(o, exported !== undefined);
      checkColumnNames(file, line, [...fields.keys()], 'object');
      first ??= [...fields.keys()];
      yield jsonRecord(file, line, fields);
    }
    if (!first) throw new UserError(msg.emptyTable(file));
  }
  return {
    get sha256() { return hash.copy().digest('hex'); },
    columns: () => first ?? [],
    header: false,
    exported: () => exported,
    records: records(),
  };
}

/** The records of a per-trial file, CSV or JSONL by its extension. */
export function trialRecords(path: string, file: string): TrialRecords {
  const lower = path.toLowerCase();
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return jsonlRecords(path, file);
  if (lower.endsWith('.csv')) return csvRecords(path, file);
  throw new UserError(sourcesMsg.unknownExtension(file));
}
