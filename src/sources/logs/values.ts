/**
 * The values of a log row: a column, a constant, a template over columns or the file's stem, each
 * compiled once per file against its header; and list columns (`['OptionA', 'OptionB']`, as
 * Python and JSON write lists). Every problem is a UserError naming file, line and field.
 */
import { basename, extname } from 'node:path';
import { UserError } from '../../core/errors.js';
import { msg } from '../../core/messages/common.js';
import type { ValueSpec } from './schema.js';
import { sourcesLogsMsg } from './messages.js';

/** One data row of a log: its file (as named to the user), 1-based line and raw fields. */
export interface LogRow {
  readonly file: string;
  readonly line: number;
  readonly fields: readonly string[];
}

/** A compiled value: the row's text for it. */
export type RowValue = (row: LogRow) => string;

/** A template's parts: literal text, or a placeholder naming a column. Undefined when malformed. */
export type TemplatePart = { readonly text: string } | { readonly column: string };
export function templateParts(template: string): TemplatePart[] | undefined {
  const parts: TemplatePart[] = [];
  const re = /\{([^{}]*)\}|([^{}]+)/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = re.exec(template)) !== null) {
    if (m[1] !== undefined) {
      if (m[1].trim() === '') return undefined;
      parts.push({ column: m[1].trim() });
    } else parts.push({ text: m[2] });
    end = re.lastIndex;
  }
  return end === template.length ? parts : undefined;
}

/** The columns a value reads. */
export function specColumns(spec: ValueSpec): string[] {
  if ('column' in spec) return [spec.column];
  if ('template' in spec) return (templateParts(spec.template) ?? []).flatMap((p) => ('column' in p ? [p.column] : []));
  return [];
}

/** The file's stem: its name without directory and extension. */
export const fileStem = (file: string): string => basename(file, extname(file));

/** A column's trimmed text; a missing value is an error naming the field. */
export function columnValue(header: ReadonlyMap<string, number>, column: string): RowValue {
  const i = header.get(column);
  if (i === undefined) throw new Error(`column ${column} was not checked against the header`);
  return (row) => {
    const v = row.fields[i].trim();
    if (v === '') throw new UserError(msg.missingField(row.file, row.line, column));
    return v;
  };
}

/** Compile a value spec against a file's header. */
export function compileValue(spec: ValueSpec, header: ReadonlyMap<string, number>, file: string): RowValue {
  if ('column' in spec) return columnValue(header, spec.column);
  if ('constant' in spec) { const c = spec.constant; return () => c; }
  if ('file_stem' in spec) { const s = fileStem(file); return () => s; }
  const values = spec.values ?? {};
  const parts = templateParts(spec.template)!.map((p): RowValue => {
    if ('text' in p) { const t = p.text; return () => t; }
    const get = columnValue(header, p.column);
    const map = values[p.column];
    if (!map) return get;
    const known = Object.keys(map);
    return (row) => {
      const v = get(row);
      if (!Object.prototype.hasOwnProperty.call(map, v)) throw new UserError(sourcesLogsMsg.notListed(row.file, row.line, p.column, v, known));
      return map[v];
    };
  });
  return (row) => { let s = ''; for (const p of parts) s += p(row); return s; };
}

/** A quoted list element from `i` (the opening quote): its text and the index after the closing quote. */
function quoted(text: string, i: number): { value: string; next: number } | string {
  const quote = text[i];
  let value = '';
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') {
      const n = text[++j];
      if (n === undefined) break;
      value += n === 'n' ? '\n' : n === 't' ? '\t' : n;
    } else if (c === quote) return { value, next: j + 1 };
    else value += c;
  }
  return 'an unclosed quote';
}

/**
 * The elements of a list column: `['OptionA', "OptionB", 3]` (Python repr or JSON), each element
 * as text (quoted elements unquoted, others trimmed). An empty list is [].
 */
export function parseList(text: string): string[] | string {
  const t = text.trim();
  if (!t.startsWith('[') || !t.endsWith(']') || t.length < 2) return 'it does not start with [ and end with ]';
  const out: string[] = [];
  let i = 1;
  const end = t.length - 1;
  const skipSpace = () => { while (i < end && /\s/.test(t[i])) i++; };
  skipSpace();
  if (i === end) return out;
  for (;;) {
    skipSpace();
    if (t[i] === "'" || t[i] === '"') {
      const q = quoted(t.slice(0, end), i);
      if (typeof q === 'string') return q;
      out.push(q.value);
      i = q.next;
    } else {
      let j = i;
      while (j < end && t[j] !== ',') j++;
      const v = t.slice(i, j).trim();
      if (v === '' || /[[\]'"]/.test(v)) return `element ${out.length + 1} is empty or malformed`;
      out.push(v);
      i = j;
    }
    skipSpace();
    if (i === end) return out;
    if (t[i] !== ',') return `a comma is missing after element ${out.length}`;
    i++;
  }
}
