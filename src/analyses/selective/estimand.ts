import type { CellTable } from '../../core/cells.js';
import type { Estimand } from '../../stats/bootstrap.js';
import { stat } from '../../core/names.js';

/**
 * Selective robustness (the context-enrichment paper §M; docs/methods.md). Cells are keyed by model, condition, world and
 * format; a cell's rate is the mean transfer (first-action) probability of its calls.
 *   surface sensitivity  SS = mean over worlds of [mean over non-canonical formats of |p(canonical) − p(format)|]
 *   world responsiveness WR = mean over formats of p(worlds[0]) − p(worlds[1])
 * The registered direction is worlds[0] above worlds[1] (regional above local in the pilot).
 */
export interface SelectiveSpec {
  /** [the world expected higher, the world expected lower]. */
  readonly worlds: readonly [string, string];
  /** The canonical format first, then the formats compared with it. */
  readonly formats: readonly string[];
}

export interface SelectiveGroup {
  readonly model: string;
  readonly condition: string;
  /** cell index by [world][format], in the spec's order. */
  readonly cells: readonly (readonly number[])[];
}

export interface SelectiveLayout {
  readonly spec: SelectiveSpec;
  readonly models: readonly string[];
  readonly conditions: readonly string[];
  readonly groups: readonly SelectiveGroup[];
  /** model × condition groups that lack a world × format cell, as "model / condition / world / format". */
  readonly missing: readonly string[];
}

/** Group the cells per model × condition; groups with a missing cell are left out and listed. */
export function selectiveLayout(table: CellTable, spec: SelectiveSpec): SelectiveLayout {
  if (spec.formats.length < 2) throw new RangeError('selective robustness needs a canonical format and at least one other');
  const index = new Map<string, number>();
  const models: string[] = [];
  const conditions: string[] = [];
  table.cells.forEach((c, i) => {
    const { model, condition, world, format } = c.key;
    index.set(JSON.stringify([model, condition, world, format]), i);
    if (!models.includes(model)) models.push(model);
    if (!conditions.includes(condition)) conditions.push(condition);
  });
  const groups: SelectiveGroup[] = [];
  const missing: string[] = [];
  for (const model of models) {
    for (const condition of conditions) {
      const cells = spec.worlds.map((w) => spec.formats.map((f) => index.get(JSON.stringify([model, condition, w, f])) ?? -1));
      const absent = spec.worlds.flatMap((w, wi) => spec.formats.filter((_, fi) => cells[wi][fi] < 0).map((f) => `${model} / ${condition} / ${w} / ${f}`));
      if (absent.length) missing.push(...absent);
      else groups.push({ model, condition, cells });
    }
  }
  return { spec, models, conditions, groups, missing };
}

/** Surface sensitivity and world responsiveness from one rate per cell (indices by world, format). */
export function surfaceSensitivity(rates: ArrayLike<number>, cells: readonly (readonly number[])[]): number {
  let total = 0;
  for (const row of cells) {
    const can = rates[row[0]];
    let s = 0;
    for (let f = 1; f < row.length; f++) s += Math.abs(can - rates[row[f]]);
    total += s / (row.length - 1);
  }
  return total / cells.length;
}

export function worldResponsiveness(rates: ArrayLike<number>, cells: readonly (readonly number[])[]): number {
  const [hi, lo] = cells;
  let s = 0;
  for (let f = 0; f < hi.length; f++) s += rates[hi[f]] - rates[lo[f]];
  return s / hi.length;
}

/** Names: SS[model | condition], WR[model | condition]. */
export function selectiveEstimand(layout: SelectiveLayout): Estimand {
  const names = layout.groups.flatMap((g) => [stat('SS', g.model, g.condition), stat('WR', g.model, g.condition)]);
  return {
    names,
    evaluate(rates, out) {
      layout.groups.forEach((g, i) => {
        out[2 * i] = surfaceSensitivity(rates, g.cells);
        out[2 * i + 1] = worldResponsiveness(rates, g.cells);
      });
    },
  };
}

export interface VerdictThresholds {
  /** Largest surface sensitivity still called invariant (fraction; default 0.05 = 5 points). */
  readonly maxSurface: number;
  /** The world-responsiveness interval's lower end must exceed this (default 0). */
  readonly minWorldLo: number;
}

export const DEFAULT_THRESHOLDS: VerdictThresholds = { maxSurface: 0.05, minWorldLo: 0 };

/**
 * The verdict of the context-enrichment paper's criterion: selectively robust when invariant to wording (SS at most
 * the threshold) and responsive in the registered direction (WR interval above the threshold).
 */
export function selectiveVerdict(ss: number, wrLo: number, t: VerdictThresholds = DEFAULT_THRESHOLDS): string {
  const invariant = ss <= t.maxSurface;
  const responsive = wrLo > t.minWorldLo;
  if (invariant && responsive) return 'selectively robust';
  if (!invariant && !responsive) return 'surface-sensitive and not world-responsive';
  return invariant ? 'not world-responsive' : 'surface-sensitive';
}
