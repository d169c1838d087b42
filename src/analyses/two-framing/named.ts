/**
 * A two-framing analysis as people read it with display names (`--names FILE`): the same numbers,
 * every model, game and framing shown by its name. The report, the figures, the terminal and the
 * LaTeX tables take this view; the CSVs and JSON are written from the analysis itself, so they
 * keep the ids and add the names beside them (tables.ts, files.ts). A statistic asked for by its
 * displayed name (R["GPT-4 (0613)"]) is the analysis's statistic of the id (R["act_gpt4"]).
 */
import { shown, type DisplayNames } from '../../core/display-names.js';
import type { BootstrapResult } from '../../stats/bootstrap.js';
import { ALL_GAMES, POOLED } from '../../core/names.js';
import type { TwoFramingAnalysis } from './analysis.js';
import type { CellTable } from '../../core/cells.js';

/** Where display names would merge two levels of a table: the id, the name it would show, and the other level shown so (an id, Pooled or All). */
export interface NameClash { readonly id: string; readonly name: string; readonly other: string }

/** name → id for the ids of a table, or the first clash when the names would merge two levels. */
function reverseOf(table: CellTable, names: DisplayNames): { back: Map<string, string> } | { clash: NameClash } {
  const ids = new Set(table.cells.flatMap((c) => Object.values(c.key)));
  const back = new Map<string, string>();
  for (const id of ids) {
    const name = shown(names, id);
    const other = back.get(name) ?? (name !== id && (ids.has(name) || name === POOLED || name === ALL_GAMES) ? name : undefined);
    if (other !== undefined) return { clash: { id, name, other } };
    back.set(name, id);
  }
  return { back };
}

/** The first pair of levels of the table the names would show alike (refused by the commands before any work), or undefined. */
export function nameClash(table: CellTable, names: DisplayNames): NameClash | undefined {
  const r = reverseOf(table, names);
  return 'clash' in r ? r.clash : undefined;
}

/** name → id for the ids of the analysis, or undefined when the names would merge two levels (the analysis is then shown by its ids). */
function reverse(a: TwoFramingAnalysis, names: DisplayNames): Map<string, string> | undefined {
  const r = reverseOf(a.table, names);
  return 'back' in r ? r.back : undefined;
}

/** A statistic's name with its parts mapped (stat names are kind + a JSON array of parts, core/names.ts). */
function mapStat(name: string, f: (part: string) => string): string {
  const i = name.indexOf('[');
  if (i < 0) return name;
  try {
    const parts = JSON.parse(name.slice(i)) as unknown;
    return Array.isArray(parts) && parts.every((p) => typeof p === 'string') ? `${name.slice(0, i)}${JSON.stringify(parts.map(f))}` : name;
  } catch {
    return name;
  }
}

function namedBoot(boot: BootstrapResult, show: (id: string) => string, id: (name: string) => string): BootstrapResult {
  return {
    ...boot,
    names: boot.names.map((n) => mapStat(n, show)),
    fellBack: new Set([...boot.fellBack].map((n) => mapStat(n, show))),
    get: (name) => boot.get(mapStat(name, id)),
    indexOf: (name) => boot.indexOf(mapStat(name, id)),
  };
}

/** The analysis with its levels by their display names (the analysis itself when no name applies or two levels would share one). */
export function namedAnalysis(a: TwoFramingAnalysis, names: DisplayNames | undefined): TwoFramingAnalysis {
  if (!names || Object.keys(names).length === 0) return a;
  const back = reverse(a, names);
  if (!back) return a;
  const show = (id: string) => shown(names, id);
  const id = (name: string) => back.get(name) ?? name;
  const f = a.family;
  return {
    table: { ...a.table, cells: a.table.cells.map((c) => ({ ...c, key: Object.fromEntries(Object.entries(c.key).map(([k, v]) => [k, show(v)])) })) },
    settings: { ...a.settings, base: show(a.settings.base), alt: show(a.settings.alt) },
    layout: {
      base: show(a.layout.base), alt: show(a.layout.alt), models: a.layout.models.map(show),
      pairs: a.layout.pairs.map((p) => ({ ...p, model: show(p.model), game: show(p.game) })),
    },
    ...(f ? { family: { models: f.models.map(show), framings: f.framings.map(show), groups: f.groups.map((g) => ({ ...g, model: show(g.model),
      game: show(g.game) })) } } : {}),
    boot: namedBoot(a.boot, show, id),
  };
}
