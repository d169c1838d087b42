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

function cell(v: CsvValue): string {
  const s = typeof v === 'number' ? full(v) : typeof v === 'string' ? neutralize(v) : v.numberText;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180 CSV with a header row and a final newline. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\n') + '\n';
}
