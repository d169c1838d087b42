/**
 * Which kind a design document is, read before its schema: a `kind:` names a context-enrichment
 * design, no `kind:` a one-shot (or, with `play:`, repeated) design. A document of one kind that
 * holds another kind's fields, or names an unknown kind, is one problem naming the kind and its
 * first wrong field — not every field each schema misses.
 */
import { designSchema } from './schema.js';
import { enrichmentDesignSchema } from './enrichment-schema.js';
import type { Problem } from './problems.js';
import { designMsg } from './messages.js';

/** The `kind:` values a design may give (a design without one is one-shot or repeated). */
export const DESIGN_KINDS = ['context-enrichment'] as const;

const ONE_SHOT_FIELDS: ReadonlySet<string> = new Set(Object.keys(designSchema.shape));
const ENRICHMENT_FIELDS: ReadonlySet<string> = new Set(Object.keys(enrichmentDesignSchema.shape));

/** The one problem of a document whose kind and fields disagree (keys in document order), or undefined. */
export function kindProblem(data: Readonly<Record<string, unknown>>): Problem | undefined {
  const keys = Object.keys(data);
  if (!('kind' in data)) {
    const wrong = keys.find((k) => ENRICHMENT_FIELDS.has(k) && !ONE_SHOT_FIELDS.has(k));
    return wrong === undefined ? undefined : { path: [wrong], message: designMsg.fieldOfEnrichment(wrong) };
  }
  const kind = data.kind;
  if (typeof kind !== 'string' || !(DESIGN_KINDS as readonly string[]).includes(kind)) {
    return { path: ['kind'], message: designMsg.unknownKind(typeof kind === 'string' ? kind : JSON.stringify(kind) ?? String(kind), DESIGN_KINDS) };
  }
  const wrong = keys.find((k) => ONE_SHOT_FIELDS.has(k) && !ENRICHMENT_FIELDS.has(k));
  return wrong === undefined ? undefined : { path: [wrong], message: designMsg.fieldOfOneShot(kind, wrong) };
}
