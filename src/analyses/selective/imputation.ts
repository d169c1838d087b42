/**
 * Imputation sensitivity (the context-enrichment paper §M; docs/methods.md "First-token scoring"): when only one action is
 * among the returned candidates, the missing one is imputed at half the unreturned mass and the
 * bounds — missing mass 0 and the full unreturned mass — are stored with the trial (the scoring
 * JSON written by src/live/scoring/score.ts). Here every imputed call is set to one bound at a time, the
 * estimands are recomputed, and the largest change and whether the condition rankings move are
 * reported. The seed reports a change of at most 0.49 points with rankings unchanged.
 */
import type { CellTable } from '../../core/cells.js';
import { cellRate } from '../../core/cells.js';
import type { TrialStore } from '../../live/store/store.js';
import { factorsJson } from '../../live/store/store.js';
import { surfaceSensitivity, worldResponsiveness, type SelectiveLayout } from './estimand.js';

export interface BoundTables {
  readonly zero: CellTable;
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
