/** The facts of a slot in a context-enrichment cell: from the base, the world or the condition (one source each). */
import type { EnrichmentSpec, EnrichmentWorld, Fact } from './types.js';

export function slotFacts(e: EnrichmentSpec, slot: string, conditionId: string, world: EnrichmentWorld): readonly Fact[] {
  const condition = e.conditions.find((c) => c.id === conditionId)!;
  const c = e.base[slot] ?? world.slots[slot] ?? condition.slots[slot];
  if (c === undefined) return [];
  return Array.isArray(c) ? c : (c as Readonly<Record<string, readonly Fact[]>>)[world.id] ?? [];
}
