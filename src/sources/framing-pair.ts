/**
 * The planned framing pair when --base/--alt are not given, one rule for every route (analyze of a
 * store, reproduce of a per-trial file or an export): each of the paper's pair (business,
 * friend-sharing) when the data hold it, else the data's framings in order — the first as base,
 * the next other one as alt. A pair given is kept as given.
 */
import { PLANNED_PAIR } from './rates-csv.js';

export interface FramingPair {
  readonly base: string;
  readonly alt: string;
}

export function framingPair(framings: readonly string[], base?: string, alt?: string): FramingPair {
  const b = base ?? (framings.includes(PLANNED_PAIR.base) || framings.length === 0 ? PLANNED_PAIR.base : framings[0]);
  const others = framings.filter((f) => f !== b);
  const a = alt ?? (framings.includes(PLANNED_PAIR.alt) && PLANNED_PAIR.alt !== b ? PLANNED_PAIR.alt : others[0] ?? framings[0] ?? PLANNED_PAIR.alt);
  return { base: b, alt: a };
}

/** The framings of cells in order of first appearance. */
export const framingsOf = (cells: readonly { readonly key: Readonly<Record<string, string>> }[]): string[] =>
  [...new Set(cells.map((c) => c.key.framing))];
