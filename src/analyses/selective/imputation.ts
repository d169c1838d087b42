/**
 * Imputation sensitivity (the context-enrichment paper §M; docs/methods.md "First-token scoring"): when only one action is
 * among the returned candidates, the missing one is imputed at half the unreturned mass and the
 * bounds — missing mass 0 and the full unreturned mass — are stored with the trial (the scoring
 * JSON written by src/live/scoring/score.ts, read with the store's table by
 * src/sources/enrichment-store.ts). Here every imputed call is set to one bound at a time, the
 * estimands are recomputed, and the largest change and whether the condition rankings move are
 * reported. The seed reports a change of at most 0.49 points with rankings unchanged.
 */
import type { CellTable } from '../../core/cells.js';
import { cellRate } from '../../core/cells.js';
import type { BoundTables } from '../../sources/store.js';
import { surfaceSensitivity, worldResponsiveness, type SelectiveLayout } from './estimand.js';

export interface ImputationRow {
  readonly model: string;
  readonly condition: string;
  readonly ss: number; readonly ssZero: number; readonly ssFull: number;
  readonly wr: number; readonly wrZero: number; readonly wrFull: number;
  /** Imputed calls and all calls of the group's cells. */
  readonly imputed: number;
  readonly calls: number;
  /** Largest |bound − midpoint| over both metrics and both bounds. */
  readonly maxChange: number;
}

export interface ImputationSensitivity {
  readonly rows: readonly ImputationRow[];
  readonly imputed: number;
  readonly scored: number;
  /** Largest change over every row (fraction; 0 when nothing was imputed). */
  readonly maxChange: number;
  /** True when, within every model, the order of the conditions by each metric is the same at both bounds. */
  readonly rankingsUnchanged: boolean;
}

const rates = (t: CellTable) => Float64Array.from(t.cells.map((c) => cellRate(c.obs)));

/** Order of a model's conditions by a value (stable for ties: design order). */
const order = (vals: number[]) => vals.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[1]).join(',');

export function imputationSensitivity(table: CellTable, layout: SelectiveLayout, b: BoundTables): ImputationSensitivity {
  const [mid, lo, hi] = [rates(table), rates(b.zero), rates(b.full)];
  const rows = layout.groups.map((g): ImputationRow => {
    const ss = [mid, lo, hi].map((r) => surfaceSensitivity(r, g.cells));
    const wr = [mid, lo, hi].map((r) => worldResponsiveness(r, g.cells));
    const idx = g.cells.flat();
    const calls = idx.reduce((s, i) => s + (table.cells[i].obs.kind === 'prob' ? (table.cells[i].obs as { values: Float64Array }).values.length : 0), 0);
    return {
      model: g.model, condition: g.condition, ss: ss[0], ssZero: ss[1], ssFull: ss[2], wr: wr[0], wrZero: wr[1], wrFull: wr[2],
      imputed: idx.reduce((s, i) => s + b.imputedByCell[i], 0), calls,
      maxChange: Math.max(Math.abs(ss[1] - ss[0]), Math.abs(ss[2] - ss[0]), Math.abs(wr[1] - wr[0]), Math.abs(wr[2] - wr[0])),
    };
  });
  let unchanged = true;
  for (const m of layout.models) {
    const mine = rows.filter((r) => r.model === m);
    for (const [a, z, f] of [[(r: ImputationRow) => r.ss, (r: ImputationRow) => r.ssZero, (r: ImputationRow) => r.ssFull],
      [(r: ImputationRow) => r.wr, (r: ImputationRow) => r.wrZero, (r: ImputationRow) => r.wrFull]] as const) {
      const base = order(mine.map(a));
      if (order(mine.map(z)) !== base || order(mine.map(f)) !== base) unchanged = false;
    }
  }
  return { rows, imputed: b.imputed, scored: b.scored, maxChange: rows.reduce((m, r) => Math.max(m, r.maxChange), 0), rankingsUnchanged: unchanged };
}
