/**
 * Display names (`--names FILE`, a `names:` block in a design or a log format): the name a paper
 * gives a model, game, framing or opponent ("GPT-4" for `act_gpt4`). Figures, the report, the
 * terminal and LaTeX show the name; CSV and JSON keep the id and add the name beside it.
 */

import { z } from 'zod';
import { nearestName } from './suggest.js';
import { nameFault } from './names-rule.js';

/** What a display name must be (the name rule of core/names-rule.ts), for the schemas' messages. */
export const DISPLAY_NAME_RULE = 'a display name has no control character and at most 256 characters';

/** The schema of a `names:` block (a design's, a log format's, a meta manifest's): id → display name, a fault named (which character). */
export const displayNamesSchema = () => z.record(z.string(), z.string().min(1).superRefine((s, ctx) => {
  const fault = nameFault(s);
  if (fault !== undefined) ctx.addIssue({ code: 'custom', message: `${DISPLAY_NAME_RULE}: the name ${fault}` });
}));

/** id → display name; a null-prototype record, so an id such as "__proto__" is a key like any other. */
export type DisplayNames = Readonly<Record<string, string>>;

/** A null-prototype copy of the entries. */
export function displayNames(entries: Iterable<readonly [string, string]> = []): DisplayNames {
  const out = Object.create(null) as Record<string, string>;
  for (const [id, name] of entries) out[id] = name;
  return out;
}

/** The maps merged, a later one winning for an id both name (`--names` over a format's block). */
export function mergeNames(...maps: readonly (DisplayNames | undefined)[]): DisplayNames {
  return displayNames(maps.flatMap((m) => (m ? Object.entries(m) : [])));
}

/** The ids display names can name in one input, by what they are (model, game, framing, opponent). */
export type NameTargets = Readonly<Record<string, readonly string[]>>;

/**
 * The ids that name nothing among the targets (a typo such as GPT4 for GPT-4, or an id of another
 * study), each once in the order given, with the nearest id of the targets when one is close.
 */
export function unusedNames(ids: Iterable<string>, targets: NameTargets): { readonly id: string; readonly nearest?: string }[] {
  const known = Object.values(targets).flat();
  const out = new Map<string, string | undefined>();
  for (const id of ids) if (!known.includes(id) && !out.has(id)) out.set(id, nearestName(id, known));
  return [...out].map(([id, nearest]) => (nearest === undefined ? { id } : { id, nearest }));
}

/** The display name of an id: its name when one is given, the id otherwise. */
export function shown(names: DisplayNames | undefined, id: string): string {
  return names !== undefined && Object.prototype.hasOwnProperty.call(names, id) ? names[id] : id;
}

/** True when the map names the id. */
export const isNamed = (names: DisplayNames | undefined, id: string): boolean =>
  names !== undefined && Object.prototype.hasOwnProperty.call(names, id);

/**
 * The `<column>_name` columns a CSV adds: one per key column with at least one named level among
 * the rows (none when no name applies, so a file without names is unchanged).
 */
export function nameColumns(names: DisplayNames | undefined, columns: readonly string[], levelsOf: (column: string) => readonly string[]): string[] {
  if (!names || Object.keys(names).length === 0) return [];
  return columns.filter((c) => levelsOf(c).some((v) => isNamed(names, v)));
}

type Cell = string | number;

/**
 * A CSV table with its display names: the header and rows as given, then a `<column>_name` column
 * per key column with a named level, each row's level by `show` (its display name by default).
 * Without names, or with none that applies, the table as given (so its file is unchanged).
 */
export function withNameColumns(names: DisplayNames | undefined, header: readonly string[], rows: readonly (readonly Cell[])[],
  keys: readonly string[], show: (id: string) => string = (id) => shown(names, id)): { header: string[]; rows: Cell[][] } {
  const levelOf = (r: readonly Cell[], c: string) => String(r[header.indexOf(c)]);
  const named = nameColumns(names, keys, (c) => rows.map((r) => levelOf(r, c)));
  return {
    header: [...header, ...named.map((c) => `${c}_name`)],
    rows: rows.map((r) => [...r, ...named.map((c) => show(levelOf(r, c)))]),
  };
}
