import Papa from 'papaparse';
import { full } from '../core/format.js';

/** A number written as given (e.g. "0.150", keeping its printed precision), never neutralized. */
export interface CsvNumberText { readonly numberText: string }
export type CsvValue = string | number | CsvNumberText;

/**
 * Text cells that begin with =, +, -, @ (or a tab/CR) are prefixed with an apostrophe so a
 * spreadsheet does not run them as formulas (OWASP CSV injection). Numbers are written as
 * numbers and never altered, so a negative shift stays −0.1, not '−0.1.
 */
export function neutralize(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** A cell as text: numbers at full precision (or as given), never altered; text neutralized. */
function text(v: CsvValue): string {
  return typeof v === 'number' ? full(v) : typeof v === 'string' ? neutralize(v) : v.numberText;
}

/**
 * RFC 4180 CSV with a header row and a final newline, written by papaparse's unparse (quotes a
 * field holding a comma, quote, line break or edge space). Formula neutralizing is done here, not
 * by papaparse's escapeFormulae, which would also alter negative numbers written as text.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  const csv = Papa.unparse({ fields: header.map(text), data: rows.map((r) => r.map(text)) }, { newline: '\n' });
  // unparse ends a header-only table with a newline and a full one without.
  return csv.endsWith('\n') ? csv : `${csv}\n`;
}
