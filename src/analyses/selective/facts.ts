/**
 * What the selective-robustness analysis reads back from a run's stored design (runs.design_json):
 * the conditions in design order, the two worlds in the registered direction [higher, lower], the
 * formats with the canonical one first, and which models are simulated (synthetic).
 */
import type { SelectiveSpec } from './estimand.js';
import { readableDesign } from '../../sources/store.js';

export interface SelectiveFacts {
  readonly models: readonly string[];
  readonly simulated: readonly string[];
  readonly scenario: string;
  readonly actions: readonly [string, string];
  readonly conditions: readonly string[];
  /** What each condition adds (the context-enrichment paper §M), by id. */
  readonly functions: Readonly<Record<string, string>>;
  readonly spec: SelectiveSpec;
  readonly publishedReference?: string;
}

/** The facts of a stored design, or undefined when it is not a context-enrichment design. */
export function selectiveFacts(designJson: string): SelectiveFacts | undefined {
  const doc = readableDesign({ designJson }); // a design not one samegame wrote is not a context-enrichment one
  const e = doc?.enrichment;
  const higher = e?.direction?.higher, lower = e?.direction?.lower;
  const formats = (e?.formats ?? []).map((f) => f.id ?? '').filter(Boolean);
  if (!doc || !e || !higher || !lower || formats.length < 2) return undefined;
  const conditions = (e.conditions ?? []).map((c) => c.id ?? '').filter(Boolean);
  return {
    models: (doc.models ?? []).map((m) => m.id ?? '').filter(Boolean),
    simulated: (doc.models ?? []).filter((m) => m.provider === 'simulated').map((m) => m.id ?? ''),
    scenario: e.scenario ?? '',
    actions: e.actions ?? ['C', 'D'],
    conditions,
    functions: Object.fromEntries((e.conditions ?? []).map((c) => [c.id ?? '', c.function ?? ''])),
    spec: { worlds: [higher, lower], formats },
    ...(e.publishedReference === undefined ? {} : { publishedReference: e.publishedReference }),
  };
}
