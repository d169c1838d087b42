/**
 * What the selective analysis of a context-enrichment run reads of its stored trials beyond the cell
 * table: the imputation bounds of first-token scoring (the context-enrichment paper §M;
 * docs/methods.md "First-token scoring"). When only one action is among the returned candidates,
 * the missing one is imputed at half the unreturned mass, and the bounds — missing mass 0 and the
 * full unreturned mass — are stored with the trial (the scoring JSON written by
 * src/live/scoring/score.ts). Read here, so the analysis receives them as plain tables.
 */
import type { CellTable } from '../core/cells.js';
import { factorsJson, type TrialStore } from '../live/store/store.js';

/** The run's cell table with every imputed call at one bound, aligned with the table it was read for. */
export interface BoundTables {
  /** Every imputed call at its lower bound (missing mass 0). */
  readonly zero: CellTable;
  /** Every imputed call at its upper bound (the full unreturned mass). */
  readonly full: CellTable;
  /** Calls whose missing action was imputed, and all calls with a probability. */
  readonly imputed: number;
  readonly scored: number;
  /** Imputed calls per cell index of the table. */
  readonly imputedByCell: readonly number[];
}

interface Bounds { missingAtZero: number; missingAtFull: number }

/** The bounds a trial's scoring JSON records, or none (nothing imputed, or sample scoring). */
function boundsOf(scoring: string | null): { bounds?: Bounds; imputed: boolean } {
  if (scoring === null) return { imputed: false };
  try {
    const s = JSON.parse(scoring) as { imputed?: string; bounds?: Bounds | null };
    const imputed = s.imputed === 'C' || s.imputed === 'D';
    return imputed && s.bounds ? { bounds: s.bounds, imputed } : { imputed: false };
  } catch {
    return { imputed: false };
  }
}

const keyOf = (model: string, game: string, framing: string, factors: string) => JSON.stringify([model, game, framing, factors]);

/**
 * The run's cell table twice more: every imputed call at its lower bound (missing mass 0) and at
 * its upper bound (the full unreturned mass). Cells and trial order match `table` (rep order).
 */
export function boundTables(store: TrialStore, runId: number, table: CellTable): BoundTables {
  const zero = new Map<string, number[]>(), full = new Map<string, number[]>(), count = new Map<string, number>();
  let imputed = 0, scored = 0;
  for (const t of store.trials(runId)) {
    if (t.pCooperate === null) continue;
    scored++;
    const k = keyOf(t.model, t.game, t.framing, factorsJson(t.factors));
    const b = boundsOf(t.scoring);
    if (b.imputed) { imputed++; count.set(k, (count.get(k) ?? 0) + 1); }
    if (!zero.has(k)) { zero.set(k, []); full.set(k, []); }
    zero.get(k)!.push(b.bounds?.missingAtZero ?? t.pCooperate);
    full.get(k)!.push(b.bounds?.missingAtFull ?? t.pCooperate);
  }
  const extra = table.factors.filter((f) => !['model', 'game', 'framing'].includes(f));
  const cellKey = (key: Readonly<Record<string, string>>) =>
    keyOf(key.model, key.game, key.framing, factorsJson(Object.fromEntries(extra.map((f) => [f, key[f]]))));
  const swap = (m: Map<string, number[]>): CellTable => ({
    factors: table.factors,
    cells: table.cells.map((c) => {
      const v = m.get(cellKey(c.key));
      return v && c.obs.kind === 'prob' ? { ...c, obs: { kind: 'prob' as const, values: Float64Array.from(v) } } : c;
    }),
  });
  return { zero: swap(zero), full: swap(full), imputed, scored, imputedByCell: table.cells.map((c) => count.get(cellKey(c.key)) ?? 0) };
}

