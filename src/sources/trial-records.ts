import { closeSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { UserError } from '../core/errors.js';
import { msg } from '../core/messages/common.js';
import { trialsMsg } from '../core/messages/trials.js';
import { readInputFile, splitRows } from './rates-csv.js';

/** One row of a per-trial file: the line it starts on and its fields by column name (trimmed). */
export interface TrialRecord {
  readonly line: number;
  /** The field's text, or undefined when the row has no such column / an empty value. */
  get(column: string): string | undefined;
  /** True when the row has the column (a CSV header column, a key of the JSONL object). */
  has(column: string): boolean;
}

export interface TrialRecords {
  readonly sha256: string;
  /** Columns of the CSV header, or of the first JSONL object, in order. */
  readonly columns: () => readonly string[];
  /** True for CSV: the columns are a header on line 1, checked before any row. */
  readonly header: boolean;
  readonly records: Iterable<TrialRecord>;
}

/** CSV: a header row, then one row per decision (papaparse; quoted fields and newlines allowed). */
function csvRecords(path: string, file: string): TrialRecords {
  const { text, sha256 } = readInputFile(path, file);
  const raw = splitRows(text, file);
  if (raw.length < 2) throw new UserError(msg.emptyTable(file));
  const header = raw[0].fields.map((h) => h.trim());
  const index = new Map(header.map((h, i) => [h, i]));
  function* records(): Iterable<TrialRecord> {
    for (const { line, fields } of raw.slice(1)) {
      if (fields.length !== header.length) throw new UserError(msg.wrongFieldCount(file, line, fields.length, header.length));
      yield {
        line,
        has: (column) => index.has(column),
        get(column) {
          const i = index.get(column);
          const v = i === undefined ? '' : fields[i].trim();
          return v === '' ? undefined : v;
        },
      };
    }
  }
  return { sha256, columns: () => header, header: true, records: records() };
}

/**
 * The lines of a file, read in chunks (a streaming line reader: memory grows with the longest
 * line, not the file), each with its 1-based number. The hash is complete once iteration ends.
 */
function* lines(path: string, file: string, hash: ReturnType<typeof createHash>): Iterable<{ line: number; text: string }> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new UserError(msg.fileUnreadable(file, (e as NodeJS.ErrnoException).code ?? String(e)));
  }
  try {
    const buf = Buffer.alloc(1 << 16);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let line = 0;
    for (;;) {
      const got = readSync(fd, buf, 0, buf.length, null);
      if (got === 0) break;
      hash.update(buf.subarray(0, got));
      const parts = (rest + decoder.write(buf.subarray(0, got))).split('\n');
      rest = parts.pop()!;
      for (const t of parts) yield { line: ++line, text: t };
    }
    rest += decoder.end();
    if (rest !== '') yield { line: ++line, text: rest };
  } finally {
    closeSync(fd);
  }
}

/** A JSON value as field text: strings trimmed, numbers and booleans written out, null as missing. */
function fieldText(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** JSONL: one JSON object per line; blank lines are skipped. */
function jsonlRecords(path: string, file: string): TrialRecords {
  const hash = createHash('sha256');
  let first: string[] | undefined;
  let any = false;
  function* records(): Iterable<TrialRecord> {
    for (const { line, text } of lines(path, file, hash)) {
      const t = (line === 1 ? text.replace(/^\uFEFF/, '') : text).trim();
      if (t === '') continue;
      let obj: unknown;
      try { obj = JSON.parse(t); } catch (e) { throw new UserError(trialsMsg.badJson(file, line, (e as Error).message)); }
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new UserError(trialsMsg.notAnObject(file, line));
      const o = obj as Record<string, unknown>;
      if (!first) first = Object.keys(o);
      any = true;
      const has = (column: string) => Object.prototype.hasOwnProperty.call(o, column);
      yield { line, has, get: (column) => (has(column) ? fieldText(o[column]) : undefined) };
    }
    if (!any) throw new UserError(msg.emptyTable(file));
  }
  const out = {
    get sha256() { return hash.copy().digest('hex'); },
    columns: () => first ?? [],
    header: false,
    records: records(),
  };
  return out;
}

/** The records of a per-trial file, CSV or JSONL by its extension. */
export function trialRecords(path: string, file: string): TrialRecords {
  const lower = path.toLowerCase();
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return jsonlRecords(path, file);
  if (lower.endsWith('.csv')) return csvRecords(path, file);
  throw new UserError(trialsMsg.unknownExtension(file));
}
