/**
 * Table 3's statistics as one column spec (Same Game, Different Story §4.2): for each column its
 * name, declared bounds, per-cell formula, conservative transform and how it is shown. The
 * two-framing estimand, table3.csv, the terminal table, the report, metrics.json, the checks, the
 * published-value names of `--expect` and the coverage study all derive from this list; a new
 * statistic is one entry here (`registerTable3Column` adds one at run time).
 */
import { ROBUSTNESS, SHIFT, type StatInfo } from './bootstrap.js';
import { robustness2 } from './jsd.js';

export interface Table3Column {
  /** table3.csv's columns `<column>`, `<column>_lo`, `<column>_hi`; the statistic of a published value. */
  readonly column: string;
  /** Its header in the terminal and report tables. */
  readonly label: string;
  /** Declared bounds (checks select statistics by them). */
  readonly info: StatInfo;
  /** The raw value of one model–game from its base and alternative rates. */
  cell(pBase: number, pAlt: number): number;
  /**
   * The conservative transform with attenuation a. Affine, so the mean of the transformed cells is
   * the transform of the mean of the raw ones (a group's value is computed from its raw mean).
   */
  conservative(raw: number, a: number): number;
  /**
   * The names of a cell's raw and conservative value and of a group's (model, pooled), one spelling
   * each for the bootstrap statistics and the keys of metrics.json: a raw value ends in `_raw` (R2
   * is the paper's name of a cell's raw R), a cell's conservative value in `_conservative`, and a
   * group's conservative values are Table 3's columns.
   */
  readonly names: { readonly cell: string; readonly cellConservative: string; readonly group: string; readonly groupConservative: string };
}

const R: Table3Column = {
  column: 'R', label: 'R', info: ROBUSTNESS,
  cell: robustness2,
  conservative: (r, a) => 1 - a * (1 - r),
  names: { cell: 'R2', cellConservative: 'R2_conservative', group: 'R_raw', groupConservative: 'R' },
};

const SHIFT_COLUMN: Table3Column = {
  column: 'shift', label: 'Action shift', info: SHIFT,
  cell: (pBase, pAlt) => pAlt - pBase,
  conservative: (d, a) => a * d,
  names: { cell: 'shift_raw', cellConservative: 'shift_conservative', group: 'shift_raw', groupConservative: 'shift' },
};

const COLUMNS: Table3Column[] = [R, SHIFT_COLUMN];

/** Table 3's columns, in order. */
export const table3Columns = (): readonly Table3Column[] => COLUMNS;

/** Add a column after the others (a plug-in statistic, a test); returns the function that removes it again. */
export function registerTable3Column(c: Table3Column): () => void {
  if (COLUMNS.some((x) => x.column === c.column)) throw new Error(`Table 3 already has a column ${c.column}`);
  COLUMNS.push(c);
  return () => { const i = COLUMNS.indexOf(c); if (i >= 0) COLUMNS.splice(i, 1); };
}

/** The statistics of table3.csv (and of published Table 3 values): each column's point, lower and upper end. */
export const table3Statistics = (): string[] => COLUMNS.flatMap((c) => [c.column, `${c.column}_lo`, `${c.column}_hi`]);
