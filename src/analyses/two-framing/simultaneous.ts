import { stat } from '../../core/names.js';
import type { BootstrapResult } from '../../stats/bootstrap.js';
import { supTBand } from '../../stats/sup-t.js';
import { andList, table3Columns } from '../../stats/table3.js';

/**
 * `--simultaneous`: the per-model R and the per-model shifts (every Table 3 column) each as one simultaneous 95 % band
 * (sup-t over the models, from the replicates already drawn; Montiel Olea and Plagborg-Møller
 * 2019; docs/methods.md §8.6), so that "every model's shift excludes 0" is a 95 % statement.
 * Pooled values and the comparisons with published values stay pointwise.
 */
export interface SimultaneousBands {
  /** Band ends by statistic name (the per-model values of every Table 3 column). */
  readonly ends: ReadonlyMap<string, readonly [number, number]>;
  /** The sup-t critical value of each family, by Table 3 column (stats/table3.ts's registry: R, shift, …). */
  readonly c: Readonly<Record<string, number>>;
}

export function simultaneousBands(boot: BootstrapResult, models: readonly string[], level = 0.95): SimultaneousBands {
  const ends = new Map<string, readonly [number, number]>();
  const family = (kind: string): number => {
    const names = models.map((m) => stat(kind, m));
    const idx = names.map((n) => boot.indexOf(n));
    const band = supTBand(boot.replicates, boot.reps, idx, boot.point, level);
    idx.forEach((j, i) => {
      const [lo, hi] = boot.info[j].bounds;
      ends.set(names[i], [Math.max(lo, band.lo[i]), Math.min(hi, band.hi[i])]);
    });
    return band.c;
  };
  return { ends, c: Object.fromEntries(table3Columns().map((col) => [col.column, family(col.names.groupConservative)])) };
}

/**
 * The bands' critical values in words, one per Table 3 column in its order: "2.41 for R, 2.38 for
 * the shift" (`last: 'and'`: "… for R and 2.38 for the shift").
 */
export function bandConstantsText(c: Readonly<Record<string, number>>, show: (x: number) => string, last: 'comma' | 'and' = 'comma'): string {
  const parts = table3Columns().map((col) => `${show(c[col.column])} for ${col.text.symbol ?? `the ${col.column}`}`);
  return last === 'comma' ? parts.join(', ') : andList(parts);
}

/** The columns the bands cover, as the notes name them: "R and shift". */
export const bandColumnsText = (): string => andList(table3Columns().map((col) => col.column));
