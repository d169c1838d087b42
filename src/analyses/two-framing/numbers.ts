/**
 * The numbers of Table 2, Table 3 and family robustness as people read them — the report's
 * tables, the terminal and the .tex files a paper inputs —: each statistic at fixed decimals
 * (core/format.ts `fixed`). Rates, differences, R, shifts and their interval ends at three, as
 * the seed's tables print them; counts whole (a weighted count at one decimal). The CSVs and
 * metrics.json keep the files' 12 significant digits.
 */
import { fixed } from '../../core/format.js';

/** Decimals of a rate, a difference, R, a shift and their interval ends. */
export const STAT_DECIMALS = 3;

/** A rate, difference, R or shift (or an interval end) at STAT_DECIMALS. */
export const statText = (x: number): string => fixed(x, STAT_DECIMALS);

/** A count of cooperative decisions: whole, or a weighted count at one decimal. */
export const countText = (x: number): string => (Number.isInteger(x) ? String(x) : fixed(x, 1));
