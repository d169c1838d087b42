import { cellRate, cellSize, type CellTable } from '../../core/cells.js';
import type { FramingPair } from './estimand.js';
import { imbensManskiInterval } from '../../stats/imbens-manski.js';

/**
 * Worst-case (Manski) bounds where trials gave no valid answer (docs/methods.md §3.1; Manski 1989,
 * "Anatomy of the selection problem", J. Human Resources 24:3). A cell with n valid trials whose
 * first actions sum to x (a count, or the summed probabilities) and m invalid trials has, over all
 * n + m trials, a rate in [x/(n + m), (x + m)/(n + m)] whatever the invalid trials would have
 * answered; the shift alt − base lies in [alt_lo − base_hi, alt_hi − base_lo]. With m = 0 the
 * bounds are the point. These bounds have no sampling error; the `*_im_*` columns are the 95 %
 * Imbens–Manski (2004) intervals for the cell rate and the shift as partially identified
 * parameters, the bounds' standard errors √(b(1 − b)/(n + m)) (binomial shares of all trials;
 * for the shift the two cells' combined).
 */
export interface InvalidBounds {
  base_invalid_share: number; alt_invalid_share: number;
  base_rate_lo: number; base_rate_hi: number;
  alt_rate_lo: number; alt_rate_hi: number;
  difference_lo: number; difference_hi: number;
  base_rate_im_lo: number; base_rate_im_hi: number;
  alt_rate_im_lo: number; alt_rate_im_hi: number;
  difference_im_lo: number; difference_im_hi: number;
}

export const INVALID_BOUND_COLUMNS = ['base_invalid_share', 'alt_invalid_share', 'base_rate_lo', 'base_rate_hi',
  'alt_rate_lo', 'alt_rate_hi', 'difference_lo', 'difference_hi',
  'base_rate_im_lo', 'base_rate_im_hi', 'alt_rate_im_lo', 'alt_rate_im_hi', 'difference_im_lo', 'difference_im_hi'] as const;

/** True when the table's cells say how many trials were invalid (direct runs) and some were: then the bounds are shown. */
export function knowsInvalid(table: CellTable): boolean {
  return table.cells.length > 0 && table.cells.every((c) => c.invalid !== undefined) && table.cells.some((c) => c.invalid! > 0);
}

function cellBounds(table: CellTable, i: number): { share: number; lo: number; hi: number; sdLo: number; sdHi: number } {
  const c = table.cells[i];
  const n = cellSize(c.obs), m = c.invalid ?? 0, x = cellRate(c.obs) * n, all = n + m;
  const lo = x / all, hi = (x + m) / all;
  return { share: all > 0 ? m / all : NaN, lo, hi, sdLo: Math.sqrt((lo * (1 - lo)) / all), sdHi: Math.sqrt((hi * (1 - hi)) / all) };
}

export function invalidBounds(table: CellTable, p: FramingPair): InvalidBounds {
  const b = cellBounds(table, p.baseIndex), s = cellBounds(table, p.altIndex);
  const [bl, bh] = imbensManskiInterval(b.lo, b.hi, b.sdLo, b.sdHi), [sl, sh] = imbensManskiInterval(s.lo, s.hi, s.sdLo, s.sdHi);
  const [dl, dh] = imbensManskiInterval(s.lo - b.hi, s.hi - b.lo, Math.hypot(s.sdLo, b.sdHi), Math.hypot(s.sdHi, b.sdLo), 0.95, [-1, 1]);
  return {
    base_invalid_share: b.share, alt_invalid_share: s.share,
    base_rate_lo: b.lo, base_rate_hi: b.hi, alt_rate_lo: s.lo, alt_rate_hi: s.hi,
    difference_lo: s.lo - b.hi, difference_hi: s.hi - b.lo,
    base_rate_im_lo: bl, base_rate_im_hi: bh, alt_rate_im_lo: sl, alt_rate_im_hi: sh, difference_im_lo: dl, difference_im_hi: dh,
  };
}
