import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Cell, CellTable } from '../core/cells.js';
import { UserError } from '../core/errors.js';
import { msg } from '../core/messages/common.js';
import { RESERVED_LEVELS } from '../core/names.js';
import { parseDecimal, roundedCount, type DecimalText } from '../core/decimal.js';

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
}

export interface ReadRatesOptions {
  /** The two planned framings every model–game must have. */
  base: string;
  alt: string;
  /** Name shown in messages (defaults to the path). */
  displayPath?: string;
}

interface RawRow { line: number; fields: string[] }

/**
 * The first control character of a level, as U+XXXX: C0 (tab and line ends included), DEL and
 * C1, and the noncharacters U+FFFE and U+FFFF that XML cannot carry. Every printable character is a valid name (README "Names"); control characters are
 * refused because terminals, SVG/PNG renderers and the tables' own keys cannot carry them.
 */
export function controlCharacter(s: string): string | undefined {
  const m = /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]/.exec(s);
  return m === null ? undefined : `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Header names: each at most once (a second "rate" column would silently lose to the first). */
function checkHeader(file: string, header: readonly string[]): void {
  const seen = new Map<string, number>();
  header.forEach((h, i) => {
    const bad = controlCharacter(h);
    if (bad !== undefined) throw new UserError(msg.controlCharacter(file, 1, h, bad));
    const first = seen.get(h);
    if (first !== undefined) throw new UserError(msg.duplicateColumn(file, h, first + 1, i + 1));
    seen.set(h, i);
  });
}

/** Split CSV text into rows with the line each starts on (quoted newlines allowed). */
function splitRows(text: string, file: string): RawRow[] {
  const rows: RawRow[] = [];
  let lastCursor = 0;
  let line = 1;
  let error: string | undefined;
  Papa.parse<string[]>(text, {
    header: false,
    delimiter: ',',
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
        error = msg.csvSyntax(file, startLine, res.errors[0].message);
      }
      const fields = res.data;
      if (fields.length === 1 && fields[0].trim() === '') return; // blank line
      rows.push({ line: startLine, fields });
    },
  });
  if (error !== undefined) throw new UserError(error);
  return rows;
}

/**
 * Read and validate a rates file (docs/methods.md "Reconstruction"). Required columns:
 * model, game, framing, n, and rate or cooperate. Every other column is provenance. The first
 * problem found ends the read with one message naming file, line and field.
 */
export function readRates(path: string, opts: ReadRatesOptions): RatesInput {
  const file = opts.displayPath ?? path;
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (e) {
    throw new UserError(msg.fileUnreadable(file, (e as NodeJS.ErrnoException).code ?? String(e)));
  }
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  const sha256 = createHash('sha256').update(buf).digest('hex');
  const raw = splitRows(text, file);
  if (raw.length === 0) throw new UserError(msg.emptyTable(file));
  const header = raw[0].fields.map((h) => h.trim());
  checkHeader(file, header);
  for (const col of REQUIRED) if (!header.includes(col)) throw new UserError(msg.missingColumn(file, col));
  const hasRate = header.includes('rate');
  const hasCoop = header.includes('cooperate');
  if (!hasRate && !hasCoop) throw new UserError(msg.needRateOrCooperate(file));
  const known = new Set<string>([...REQUIRED, 'rate', 'cooperate']);
  const provenanceColumns = header.filter((h) => !known.has(h));
  if (raw.length === 1) throw new UserError(msg.emptyTable(file));

  const rows: RateRow[] = [];
  const firstLineOf = new Map<string, number>();
  for (const { line, fields } of raw.slice(1)) {
    if (fields.length !== header.length) throw new UserError(msg.wrongFieldCount(file, line, fields.length, header.length));
    const get = (col: string) => fields[header.indexOf(col)].trim();
    const need = (col: string) => {
      const v = get(col);
      if (v === '') throw new UserError(msg.missingField(file, line, col));
      return v;
    };
    const model = need('model');
    const game = need('game');
    const framing = need('framing');
    for (const [field, value] of [['model', model], ['game', game], ['framing', framing]] as const) {
      const bad = controlCharacter(value);
      if (bad !== undefined) throw new UserError(msg.controlCharacter(file, line, field, bad));
    }
    for (const [field, value] of [['model', model], ['game', game]] as const) {
      if ((RESERVED_LEVELS[field] as readonly string[]).includes(value)) throw new UserError(msg.reservedLevel(file, line, field, value));
    }
    const nText = need('n');
    if (Number.isNaN(Number(nText))) throw new UserError(msg.notANumber(file, line, 'n', nText));
    if (!INTEGER.test(nText)) throw new UserError(msg.nNotPositiveInteger(file, line, nText));
    const n = Number(nText);
    if (!Number.isSafeInteger(n) || n <= 0) throw new UserError(msg.nNotPositiveInteger(file, line, nText));

    const rateText = hasRate ? get('rate') : '';
    const coopText = hasCoop ? get('cooperate') : '';
    if (rateText === '' && coopText === '') throw new UserError(msg.missingField(file, line, hasRate ? 'rate' : 'cooperate'));
    let rate: DecimalText | undefined;
    if (rateText !== '') {
      rate = parseDecimal(rateText);
      if (rate === undefined) {
        const v = Number(rateText);
        if (Number.isNaN(v) || !Number.isFinite(v)) throw new UserError(msg.notANumber(file, line, 'rate', rateText));
        if (v < 0 || v > 1) throw new UserError(msg.rateOutOfRange(file, line, rateText));
        throw new UserError(msg.notPlainDecimal(file, line, rateText)); // exponent or hex form: decimals unknown
      }
      if (rate.value < 0 || rate.value > 1) throw new UserError(msg.rateOutOfRange(file, line, rateText));
    }
    let x: number;
    if (coopText !== '') {
      const v = Number(coopText);
      if (Number.isNaN(v)) throw new UserError(msg.notANumber(file, line, 'cooperate', coopText));
      if (!INTEGER.test(coopText) || !Number.isSafeInteger(v) || v < 0) throw new UserError(msg.cooperateNotCount(file, line, coopText));
      if (v > n) throw new UserError(msg.cooperateAboveN(file, line, v, n));
      x = v;
    } else {
      // Same Game, Different Story §4.2: count = round(rate · n); 0 and 1 give 0/n and n/n.
      x = roundedCount(rate!, n);
    }
    const key = { model, game, framing };
    // Keyed by the JSON of the levels: "A / B", "C" and "A", "B / C" are different cells.
    const id = JSON.stringify([model, game, framing]);
    const first = firstLineOf.get(id);
    if (first !== undefined) throw new UserError(msg.duplicateCell(file, line, first, `${model} / ${game} / ${framing}`));
    firstLineOf.set(id, line);
    const provenance: Record<string, string> = {};
    for (const col of provenanceColumns) provenance[col] = get(col);
    if (rate) provenance.rate = rate.text;
    rows.push({ line, rate, reconstructed: coopText === '', cell: { key, obs: { kind: 'binary', n, x }, provenance } });
  }

  // Every model–game must have both planned framings (Same Game, Different Story §3.3: one planned contrast each).
  const mgFirst = new Map<string, RateRow>();
  const mgFramings = new Map<string, Set<string>>();
  for (const r of rows) {
    const mg = JSON.stringify([r.cell.key.model, r.cell.key.game]);
    if (!mgFirst.has(mg)) { mgFirst.set(mg, r); mgFramings.set(mg, new Set()); }
    mgFramings.get(mg)!.add(r.cell.key.framing);
  }
  for (const [mg, r] of mgFirst) {
    for (const f of [opts.base, opts.alt]) {
      if (!mgFramings.get(mg)!.has(f)) throw new UserError(msg.missingFraming(file, r.line, r.cell.key.model, r.cell.key.game, f));
    }
  }
  return { path: file, sha256, table: { factors: [...FACTORS], cells: rows.map((r) => r.cell) }, rows, provenanceColumns };
}
