import { cellRate, cellSize, type CellTable } from '../../core/cells.js';
import type { FramingPair } from './estimand.js';

/**
 * Worst-case (Manski) bounds where trials gave no valid answer (docs/methods.md §3.1; Manski 1989,
 * "Anatomy of the selection problem", J. Human Resources 24:3). A cell with n valid trials whose
 * first actions sum to x (a count, or the summed probabilities) and m invalid trials has, over all
 * n + m trials, a rate in [x/(n + m), (x + m)/(n + m)] whatever the invalid trials would have
 * answered; the shift alt − base lies in [alt_lo − base_hi, alt_hi − base_lo]. With m = 0 the
 * bounds are the point.
 */
export interface InvalidBounds {
  base_invalid_share: number; alt_invalid_share: number;
  base_rate_lo: number; base_rate_hi: number;
  alt_rate_lo: number; alt_rate_hi: number;
  difference_lo: number; difference_hi: number;
}

export const INVALID_BOUND_COLUMNS = ['base_invalid_share', 'alt_invalid_share', 'base_rate_lo', 'base_rate_hi',
  'alt_rate_lo', 'alt_rate_hi', 'difference_lo', 'difference_hi'] as const;

/** True when the table's cells say how many trials were invalid (direct runs) and some were: then the bounds are shown. */
export function knowsInvalid(table: CellTable): boolean {
  return table.cells.length > 0 && table.cells.every((c) => c.invalid !== undefined) && table.cells.some((c) => c.invalid! > 0);
}

function cellBounds(table: CellTable, i: number): { share: number; lo: number; hi: number } {
  const c = table.cells[i];
  const n = cellSize(c.obs), m = c.invalid ?? 0, x = cellRate(c.obs) * n, all = n + m;
  return { share: all > 0 ? m / all : NaN, lo: x / all, hi: (x + m) / all };
}

export function invalidBounds(table: CellTable, p: FramingPair): InvalidBounds {
  const b = cellBounds(table, p.baseIndex), s = cellBounds(table, p.altIndex);
  return {
    base_invalid_share: b.share, alt_invalid_share: s.share,
    base_rate_lo: b.lo, base_rate_hi: b.hi, alt_rate_lo: s.lo, alt_rate_hi: s.hi,
    difference_lo: s.lo - b.hi, difference_hi: s.hi - b.lo,
  };
}
