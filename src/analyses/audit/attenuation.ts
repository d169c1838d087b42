import type { TwoFramingAnalysis } from '../two-framing/index.js';
import { DEFAULT_ATTENUATION } from '../../sources/input.js';
import { POOLED, stat } from '../../core/names.js';
import type { Interval } from '../../stats/bootstrap.js';
import { auditedColumns, type Table3Column } from '../../stats/table3.js';

/**
 * Reference line: the average replication ratio of effect sizes in Camerer et al. 2016,
 * "Evaluating replicability of laboratory experiments in economics", Science 351:1433 (about
 * 66 % of the original effect).
 */
export const CAMERER_2016_RATIO = 0.66;

/** 0.50, 0.55, …, 1.00 (in hundredths, so the grid is exact decimals). */
export const SWEEP_GRID: readonly number[] = Array.from({ length: 11 }, (_, i) => (50 + 5 * i) / 100);

export type SweepMark = 'default' | 'reference' | 'selected';

export interface SweepRow {
  readonly attenuation: number;
  readonly marks: readonly SweepMark[];
  readonly group: string;
  /** Each audited Table 3 column's conservative value at this attenuation, by its `column` (R, shift, …). */
  readonly values: Readonly<Record<string, Interval>>;
}

/**
 * Headline statistics (the audited Table 3 columns) at each attenuation a, by each column's
 * conservative transform of its raw group value. The transform is affine and increasing in the raw
 * value (shift_c = a·Δ, R_c = 1 − a(1 − R2)) and the mean of transformed values is the transform
 * of the mean, so every percentile of the transformed replicates is the transform of the raw
 * percentile (linear interpolation commutes with affine maps). One bootstrap of the raw values
 * therefore gives the whole sweep, on the same replicates.
 *
 * It also means no conclusion of the form "interval excludes 0 / excludes 1 / model ordering"
 * can change with a > 0: attenuation rescales magnitudes only.
 */
export function attenuationSweep(a: TwoFramingAnalysis, grid: readonly number[] = SWEEP_GRID,
  columns: readonly Table3Column[] = auditedColumns()): SweepRow[] {
  const selected = a.settings.attenuation;
  const values = [...new Set([...grid, DEFAULT_ATTENUATION.reconstructed, CAMERER_2016_RATIO, selected])].sort((x, y) => x - y);
  const groups = [...a.layout.models, POOLED];
  const rows: SweepRow[] = [];
  for (const att of values) {
    const marks: SweepMark[] = [];
    if (att === DEFAULT_ATTENUATION.reconstructed) marks.push('default');
    if (att === CAMERER_2016_RATIO) marks.push('reference');
    if (att === selected) marks.push('selected');
    for (const g of groups) {
      const values = Object.fromEntries(columns.map((c) => {
        const v = a.boot.get(stat(c.names.group, g));
        return [c.column, { point: c.conservative(v.point, att), lo: c.conservative(v.lo, att), hi: c.conservative(v.hi, att) }];
      }));
      rows.push({ attenuation: att, marks, group: g, values });
    }
  }
  return rows;
}
