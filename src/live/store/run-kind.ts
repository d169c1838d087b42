/**
 * The kind of a run — one-shot, repeated or context-enrichment — as the runs table records it
 * (column `kind`, migration 3, written when the run is opened). A store written before the column
 * existed is read by inferring the kind from the stored design, as migration 3 sets it.
 */
import { readableDesign } from './stored-design.js';

export const RUN_KINDS = ['one-shot', 'repeated', 'enrichment'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/** The kind of a (resolved) design: a `play` block makes it repeated, an `enrichment` block context-enrichment. */
export function designKind(design: { readonly play?: unknown; readonly enrichment?: unknown }): RunKind {
  if (design.enrichment !== undefined) return 'enrichment';
  return design.play !== undefined ? 'repeated' : 'one-shot';
}

/** The kind of a stored run: the recorded one when the store has it, else inferred from its design (a design not one samegame wrote: one-shot). */
export function storedRunKind(recorded: unknown, designJson: string): RunKind {
  if (typeof recorded === 'string' && (RUN_KINDS as readonly string[]).includes(recorded)) return recorded as RunKind;
  return designKind(readableDesign({ designJson }) ?? {});
}
