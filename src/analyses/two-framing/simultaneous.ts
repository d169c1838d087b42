import { stat } from '../../core/names.js';
import type { BootstrapResult } from '../../stats/bootstrap.js';
import { supTBand } from '../../stats/sup-t.js';
import { table3Columns } from '../../stats/table3.js';

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
  readonly c: { readonly R: number; readonly shift: number; readonly [column: string]: number };
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
  const c = Object.fromEntries(table3Columns().map((col) => [col.column, family(col.names.groupConservative)]));
  return { ends, c: { R: NaN, shift: NaN, ...c } };
}
