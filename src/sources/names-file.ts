/**
 * The display-names file of `--names FILE`: CSV with the header `id,name`, one id per row (a model,
 * game, framing or opponent as the input names it) and the name to show for it. Blank lines are
 * skipped; every other fault is one line naming the file, line and field.
 */
import { resolve } from 'node:path';
import { displayNames, mergeNames, shown, unusedNames, type DisplayNames, type NameTargets } from '../core/display-names.js';
import { msg } from '../core/messages/common.js';
import { UserError } from '../core/errors.js';
import { nameFault, readInputFile } from './reader-rules.js';
import { sourcesMsg } from './messages.js';
import { splitRows } from './rates-csv.js';

/**
 * A field's value, trimmed, held to the name rule. The rule sees it trimmed of every space but the
 * line ends (CR, LF, U+2028, U+2029): `"GPT-4\n"` is refused by its character, not taken as GPT-4.
 */
function checkedField(file: string, line: number, field: 'id' | 'name', raw: string): string {
  const value = raw.trim();
  if (value === '') throw new UserError(sourcesMsg.empty(file, line, field));
  const fault = nameFault(raw.replace(/^[^\S\r\n\u2028\u2029]+|[^\S\r\n\u2028\u2029]+$/g, ''));
  if (fault !== undefined) throw new UserError(sourcesMsg.fault(file, line, field, fault));
  return value;
}

/** Display names from CSV text (file: the name messages use), with the line of each id. */
function parseNameLines(text: string, file: string): { names: DisplayNames; lines: ReadonlyMap<string, number> } {
  // Rows as RFC 4180 reads them: a quoted line end is part of its field, which the name rule then refuses by its character.
  const rows = splitRows(text.replace(/^\uFEFF/, ''), file);
  const header = (rows[0]?.line === 1 ? rows[0].fields : ['']).map((h) => h.trim());
  if (header.length !== 2 || header[0] !== 'id' || header[1] !== 'name') throw new UserError(sourcesMsg.header(file, header));
  const entries: [string, string][] = [];
  const first = new Map<string, number>();
  rows.slice(1).forEach(({ line, fields: f }) => {
    if (f.length !== 2) throw new UserError(sourcesMsg.fields(file, line, f.length));
    const id = checkedField(file, line, 'id', f[0]);
    const name = checkedField(file, line, 'name', f[1]);
    const seen = first.get(id);
    if (seen !== undefined) throw new UserError(sourcesMsg.duplicate(file, line, id, seen));
    first.set(id, line);
    entries.push([id, name]);
  });
  return { names: displayNames(entries), lines: first };
}

/** Display names from CSV text (file: the name messages use). */
export function parseNames(text: string, file: string): DisplayNames {
  return parseNameLines(text, file).names;
}

/** A names file read: its names and the line of each id. */
const readNameLines = (path: string, file = path) => parseNameLines(readInputFile(resolve(path), file).text, file);

/** Display names from a file (`--names FILE`). */
export function readNamesFile(path: string, file = path): DisplayNames {
  return readNameLines(path, file).names;
}

/** The ids of rows by the fields named (each id once, in first-seen order). */
export function nameTargets<T>(rows: Iterable<T>, fields: readonly string[], value: (row: T, field: string) => string | undefined): NameTargets {
  const out: Record<string, Set<string>> = Object.fromEntries(fields.map((f) => [f, new Set<string>()]));
  for (const r of rows) for (const f of fields) { const v = value(r, f); if (v !== undefined) out[f].add(v); }
  return Object.fromEntries(fields.map((f) => [f, [...out[f]]]));
}

export interface DisplayNamesOptions {
  /** The names the source gives (a design's or a log format's `names:` block). */
  readonly source?: DisplayNames;
  /** Where the source's names come from, when they are checked (a design's block); unchecked without it (a log format names every player of its log). */
  readonly sourceBlock?: string;
  /** Names given directly (the library's `names` option), merged over the source's. */
  readonly given?: DisplayNames;
  /** `--names FILE`, merged over both. */
  readonly file?: string;
  /** The ids of the input, by what they are. */
  readonly targets: NameTargets;
  /** Where a warning goes. */
  readonly warn: (message: string) => void;
}

/**
 * The display names of an analysis, read and merged in one place (the source's block, then the
 * library's names, then `--names FILE`, a later one winning for an id), with one warning per id of
 * the file or the design's block that names nothing in this input (a typo such as GPT4 for GPT-4):
 * the file and line, the nearest id and what the ids can name. A warning, not an error: a names file
 * shared across studies may hold ids of other inputs.
 */
export function readDisplayNames(o: DisplayNamesOptions): DisplayNames {
  const read = o.file === undefined ? undefined : readNameLines(o.file);
  const fromFile = [...(read?.lines.keys() ?? [])];
  const fromBlock = o.source && o.sourceBlock !== undefined ? Object.keys(o.source) : [];
  for (const { id, nearest } of unusedNames([...fromFile, ...fromBlock], o.targets)) {
    o.warn(msg.unusedName(read?.lines.has(id) ? `${o.file}:${read.lines.get(id)}` : o.sourceBlock!, id, nearest, o.targets));
  }
  const merged = mergeNames(o.source, o.given, read?.names);
  const where = (id: string) => (read?.lines.has(id) ? `${o.file}:${read.lines.get(id)}`
    : o.given !== undefined && Object.hasOwn(o.given, id) ? sourcesMsg.givenNames() : o.sourceBlock ?? sourcesMsg.givenNames());
  const clash = nameCollision(merged, o.targets);
  if (clash !== undefined) {
    const named = (id: string) => (Object.hasOwn(merged, id) ? where(id) : undefined);
    throw new UserError(sourcesMsg.nameCollision(clash.kind, clash.name, clash.ids[0], named(clash.ids[0]), clash.ids[1], named(clash.ids[1])));
  }
  return merged;
}

/**
 * Two ids of one kind (models, games, framings, opponents, studies) of the input that would be
 * shown under one name — two ids given one display name, or an id given the name another id shows
 * as — and that name; undefined when every id of each kind shows as its own name. The figures, the
 * report and the terminal would otherwise pool or show two models under one name without a word.
 */
export function nameCollision(names: DisplayNames, targets: NameTargets): { kind: string; name: string; ids: [string, string] } | undefined {
  for (const [kind, ids] of Object.entries(targets)) {
    const seen = new Map<string, string>();
    for (const id of new Set(ids)) {
      const name = shown(names, id);
      const other = seen.get(name);
      if (other !== undefined) return { kind, name, ids: [other, id] };
      seen.set(name, id);
    }
  }
  return undefined;
}
