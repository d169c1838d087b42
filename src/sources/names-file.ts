/**
 * The display-names file of `--names FILE`: CSV with the header `id,name`, one id per row (a model,
 * game, framing or opponent as the input names it) and the name to show for it. Blank lines are
 * skipped; every other fault is one line naming the file, line and field.
 */
import { resolve } from 'node:path';
import Papa from 'papaparse';
import { displayNames, type DisplayNames } from '../core/display-names.js';
import { UserError } from '../core/errors.js';
import { nameFault, readInputFile } from './reader-rules.js';
import { sourcesMsg } from './messages.js';

/** The fields of one line of CSV (RFC 4180 quoting), or a syntax fault. */
function fieldsOf(file: string, line: number, text: string): string[] {
  const r = Papa.parse<string[]>(text, { header: false, skipEmptyLines: false, delimiter: ',' });
  const err = r.errors[0];
  if (err) throw new UserError(sourcesMsg.syntax(file, line, err.message));
  return r.data[0] ?? [];
}

function checkField(file: string, line: number, field: 'id' | 'name', value: string): void {
  if (value.trim() === '') throw new UserError(sourcesMsg.empty(file, line, field));
  const fault = nameFault(value);
  if (fault !== undefined) throw new UserError(sourcesMsg.fault(file, line, field, fault));
}

/** Display names from CSV text (file: the name messages use). */
export function parseNames(text: string, file: string): DisplayNames {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const header = fieldsOf(file, 1, lines[0] ?? '').map((h) => h.trim());
  if (header.length !== 2 || header[0] !== 'id' || header[1] !== 'name') throw new UserError(sourcesMsg.header(file, lines[0] ?? ''));
  const entries: [string, string][] = [];
  const first = new Map<string, number>();
  lines.slice(1).forEach((raw, i) => {
    const line = i + 2;
    if (raw.trim() === '') return;
    const f = fieldsOf(file, line, raw);
    if (f.length !== 2) throw new UserError(sourcesMsg.fields(file, line, f.length));
    const [id, name] = [f[0].trim(), f[1].trim()];
    checkField(file, line, 'id', id);
    checkField(file, line, 'name', name);
    const seen = first.get(id);
    if (seen !== undefined) throw new UserError(sourcesMsg.duplicate(file, line, id, seen));
    first.set(id, line);
    entries.push([id, name]);
  });
  return displayNames(entries);
}

/** Display names from a file (`--names FILE`). */
export function readNamesFile(path: string, file = path): DisplayNames {
  return parseNames(readInputFile(resolve(path), file).text, file);
}
