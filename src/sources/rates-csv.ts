import Papa from 'papaparse';
import type { Cell, CellTable } from '../core/cells.js';
import { UserError } from '../core/errors.js';
import { msg } from '../core/messages/common.js';
import { checkColumnNames, checkLevel, readInputFile } from './reader-rules.js';
import { parseDecimal, percentAsRate, roundedCount, type DecimalText } from '../core/decimal.js';
import { sourcesMsg } from './messages.js';

export const FACTORS = ['model', 'game', 'framing'] as const;
const REQUIRED = ['model', 'game', 'framing', 'n'] as const;
/** Counts are written in decimal digits ("300", "+300"); Number() would also take "0x12c" or "3e2". */
const INTEGER = /^\+?\d+$/;

/** One validated row: its cell, where it came from, and the rate text when one was given. */
export interface RateRow {
  readonly line: number;
  readonly cell: Cell;
  readonly rate?: DecimalText;
  /** True when the count was reconstructed from the rate (no cooperate column value). */
  readonly reconstructed: boolean;
}

export interface RatesInput {
  readonly path: string;
  readonly sha256: string;
  readonly table: CellTable;
  readonly rows: readonly RateRow[];
  /** Columns beyond the required ones, kept as provenance. */
  readonly provenanceColumns: readonly string[];
  /** Counts given (a cooperate column), reconstructed from rates, or both (a RatesKind for rates files). */
  readonly kind: string;
}

export interface ReadRatesOptions {
  /** The two planned framings every model–game must have. */
  base: string;
  alt: string;
  /** Name shown in messages (defaults to the path). */
  displayPath?: string;
}

/** The planned pair of Same Game, Different Story: readRates(path) checks every model–game for it. */
export const PLANNED_PAIR: ReadRatesOptions = { base: 'business', alt: 'friend-sharing' };

export interface RawRow { line: number; fields: string[] }

/** Split CSV text into rows with the line each starts on (quoted newlines allowed). */
export function splitRows(text: string, file: string, delimiter = ','): RawRow[] {
  const rows: RawRow[] = [];
  let lastCursor = 0;
  let line = 1;
  let error: string | undefined;
  Papa.parse<string[]>(text, {
    header: false,
    delimiter,
    skipEmptyLines: false,
    step: (res) => {
      const start = lastCursor;
      const startLine = line;
      const end = res.meta.cursor;
      // Lines end in \n, \r\n or a lone \r (old Mac files): count each ending once.
      for (let i = start; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c === 13 || (c === 10 && (i === 0 || text.charCodeAt(i - 1) !== 13))) line++;
      }
      lastCursor = end;
      if (res.errors.length && error === undefined) {
        error = sourcesMsg.csvSyntax(file, startLine, res.errors[0].message);
      }
      const fields = res.data;
      if (fields.length === 1 && fields[0].trim() === '') return; // blank line
      rows.push({ line: startLine, fields });
    },
  });
  if (error !== undefined) throw new UserError(error);
  return rows;
}

/** What a rates file holds: counts given exactly, counts reconstructed from rates, or both. */
export type RatesKind = 'observed counts' | 'reconstructed from rates' | 'observed counts and reconstructed from rates';

/** The kind of a set of rows: reconstructed when a row's count came from its rate. */
export function ratesKind(rows: readonly RateRow[]): RatesKind {
  const recon = rows.filter((r) => r.reconstructed).length;
  if (recon === 0) return 'observed counts';
  return recon === rows.length ? 'reconstructed from rates' : 'observed counts and reconstructed from rates';
}

interface Header { readonly columns: readonly string[]; readonly hasRate: boolean; readonly hasCoop: boolean; readonly provenance: readonly string[] }

function parseHeader(raw: readonly RawRow[], file: string): Header {
  if (raw.length === 0) throw new UserError(msg.emptyTable(file));
  const columns = raw[0].fields.map((h) => h.trim());
  checkColumnNames(file, 1, columns, 'header');
  for (const col of REQUIRED) if (!columns.includes(col)) throw new UserError(msg.missingColumn(file, col, columns));
  const hasRate = columns.includes('rate');
  const hasCoop = columns.includes('cooperate');
  if (!hasRate && !hasCoop) throw new UserError(sourcesMsg.needRateOrCooperate(file, columns));
  const known = new Set<string>([...REQUIRED, 'rate', 'cooperate']);
  if (raw.length === 1) throw new UserError(msg.emptyTable(file));
  return { columns, hasRate, hasCoop, provenance: columns.filter((h) => !known.has(h)) };
}

/** The model, game and framing of a row: names (reader-rules.ts), model and game not the tables' reserved names. */
export function cellKeyOf(file: string, line: number, need: (col: string) => string): { model: string; game: string; framing: string } {
  const model = need('model');
  const game = need('game');
  const framing = need('framing');
  for (const [field, value] of [['model', model], ['game', game], ['framing', framing]] as const) checkLevel(file, line, field, value);
  return { model, game, framing };
}

export function parseN(file: string, line: number, nText: string): number {
  if (Number.isNaN(Number(nText))) throw new UserError(msg.notANumber(file, line, 'n', nText));
  if (!INTEGER.test(nText)) throw new UserError(sourcesMsg.nNotPositiveInteger(file, line, nText));
  const n = Number(nText);
  if (!Number.isSafeInteger(n) || n <= 0) throw new UserError(sourcesMsg.nNotPositiveInteger(file, line, nText));
  return n;
}

function parseRate(file: string, line: number, rateText: string): DecimalText {
  const rate = parseDecimal(rateText);
  if (rate === undefined) {
    const v = Number(rateText);
    if (Number.isNaN(v) || !Number.isFinite(v)) throw new UserError(msg.notANumber(file, line, 'rate', rateText));
    if (v < 0 || v > 1) throw new UserError(sourcesMsg.rateOutOfRange(file, line, rateText));
    throw new UserError(sourcesMsg.notPlainDecimal(file, line, rateText)); // exponent or hex form: decimals unknown
  }
  if (rate.value < 0 || rate.value > 1) {
    throw new UserError(sourcesMsg.rateOutOfRange(file, line, rateText, rate.value <= 100 ? percentAsRate(rate) : undefined));
  }
  return rate;
}

function parseCooperate(file: string, line: number, coopText: string, n: number): number {
  const v = Number(coopText);
  if (Number.isNaN(v)) throw new UserError(msg.notANumber(file, line, 'cooperate', coopText));
  if (!INTEGER.test(coopText) || !Number.isSafeInteger(v) || v < 0) throw new UserError(sourcesMsg.cooperateNotCount(file, line, coopText));
  if (v > n) throw new UserError(sourcesMsg.cooperateAboveN(file, line, v, n));
  return v;
}

/** One data row → its validated RateRow (the first problem ends the read). */
function parseRow(file: string, h: Header, { line, fields }: RawRow): RateRow {
  if (fields.length !== h.columns.length) throw new UserError(msg.wrongFieldCount(file, line, fields.length, h.columns.length));
  const get = (col: string) => fields[h.columns.indexOf(col)].trim();
  const need = (col: string) => {
    const v = get(col);
    if (v === '') throw new UserError(msg.missingField(file, line, col));
    return v;
  };
  const key = cellKeyOf(file, line, need);
  const n = parseN(file, line, need('n'));
  const rateText = h.hasRate ? get('rate') : '';
  const coopText = h.hasCoop ? get('cooperate') : '';
  if (rateText === '' && coopText === '') throw new UserError(msg.missingField(file, line, h.hasRate ? 'rate' : 'cooperate'));
  const rate = rateText !== '' ? parseRate(file, line, rateText) : undefined;
  // Same Game, Different Story §4.2: count = round(rate · n); 0 and 1 give 0/n and n/n.
  const x = coopText !== '' ? parseCooperate(file, line, coopText, n) : roundedCount(rate!, n);
  const provenance: Record<string, string> = {};
  for (const col of h.provenance) provenance[col] = get(col);
  if (rate) provenance.rate = rate.text;
  return { line, rate, reconstructed: coopText === '', cell: { key, obs: { kind: 'binary', n, x }, provenance } };
}

/**
 * Every model–game must have both planned framings (Same Game, Different Story §3.3: one planned
 * contrast each); the message names the framings the file has, to choose --base/--alt from.
 */
export function checkPlannedFramings(file: string, cells: readonly { line: number; key: Readonly<Record<string, string>>; file?: string }[],
  base: string, alt: string): void {
  const mgFirst = new Map<string, { line: number; key: Readonly<Record<string, string>>; file?: string }>();
  const mgFramings = new Map<string, Set<string>>();
  for (const c of cells) {
    const mg = JSON.stringify([c.key.model, c.key.game]);
    if (!mgFirst.has(mg)) { mgFirst.set(mg, c); mgFramings.set(mg, new Set()); }
    mgFramings.get(mg)!.add(c.key.framing);
  }
  const all = [...new Set(cells.map((c) => c.key.framing))];
  for (const [mg, c] of mgFirst) {
    for (const f of [base, alt]) {
      if (!mgFramings.get(mg)!.has(f)) throw new UserError(sourcesMsg.missingFraming(c.file ?? file, c.line, c.key.model, c.key.game, f, all));
    }
  }
}

/**
 * Read and validate a rates file (docs/methods.md "Reconstruction"). Required columns:
 * model, game, framing, n, and rate or cooperate. Every other column is provenance. The first
 * problem found ends the read with one message naming file, line and field. The planned framings
 * default to the paper's pair (business, friend-sharing).
 */
export function readRates(path: string, opts: Partial<ReadRatesOptions> = {}): RatesInput {
  const file = opts.displayPath ?? path;
  const { text, sha256 } = readInputFile(path, file);
  const raw = splitRows(text, file);
  const header = parseHeader(raw, file);
  const rows: RateRow[] = [];
  const firstLineOf = new Map<string, number>();
  for (const r of raw.slice(1)) {
    const row = parseRow(file, header, r);
    const { model, game, framing } = row.cell.key;
    // Keyed by the JSON of the levels: "A / B", "C" and "A", "B / C" are different cells.
    const id = JSON.stringify([model, game, framing]);
    const first = firstLineOf.get(id);
    if (first !== undefined) throw new UserError(sourcesMsg.duplicateCell(file, row.line, first, `${model} / ${game} / ${framing}`));
    firstLineOf.set(id, row.line);
    rows.push(row);
  }
  checkPlannedFramings(file, rows.map((r) => ({ line: r.line, key: r.cell.key })), opts.base ?? 'business', opts.alt ?? 'friend-sharing');
  return {
    path: file, sha256, table: { factors: [...FACTORS], cells: rows.map((r) => r.cell) }, rows,
    provenanceColumns: header.provenance, kind: ratesKind(rows),
  };
}
