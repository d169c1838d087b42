/**
 * Cluster-robust intervals for the two-framing statistics of clustered cells (repeated play,
 * per-trial files with a cluster column, published logs; docs/methods.md §8.3): every R and shift
 * (per model–game, per model, pooled; family R) is a smooth function of the cells' rates, so its
 * interval is the delta method on the CR2 variance with Satterthwaite degrees of freedom
 * (src/stats/cluster-intervals.ts) — exact for the shifts, which are linear in the rates; an R
 * averaging several model–games is centred on its second-order bias correction. A
 * statistic resting on a cell of fewer than 3 matches gets no interval. Other statistics (λ̂) keep
 * the cluster bootstrap's.
 */
import type { CellTable } from '../../core/cells.js';
import { cellRate } from '../../core/cells.js';
import { bootstrapResult, type BootstrapResult, type Estimand } from '../../stats/bootstrap.js';
import { clusterLinearInterval, derivatives, type ClusteredIntervalMethod } from '../../stats/cluster-intervals.js';
import type { ClusterColumn } from '../../stats/cluster-robust.js';

/** Statistics whose interval is cluster-robust, their degrees of freedom and matches (parallel to names; NaN elsewhere). */
export interface ClusterRobustInfo {
  readonly df: Float64Array;
  readonly matches: Float64Array;
}

/** The cells' match columns when every cell is clustered; undefined otherwise. */
function clusterColumns(table: CellTable): ClusterColumn[] | undefined {
  const cols: ClusterColumn[] = [];
  for (const c of table.cells) {
    if (c.obs.kind !== 'clustered') return undefined;
    cols.push({ sizes: c.obs.sizes, sums: c.obs.sums });
  }
  return cols;
}

/**
 * The bootstrap with the R and shift intervals replaced by cluster-robust ones, when every cell is
 * clustered and neither BCa nor the cluster bootstrap was asked for; unchanged otherwise.
 */
export function withClusterRobust(table: CellTable, estimand: Estimand, boot: BootstrapResult,
  choice: { interval?: string; clusterInterval?: ClusteredIntervalMethod }): { boot: BootstrapResult; clusterRobust?: ClusterRobustInfo } {
  const cols = clusterColumns(table);
  if (!cols || choice.interval === 'bca' || choice.clusterInterval === 'cluster-bootstrap') return { boot };
  const s = estimand.names.length;
  const rates = Float64Array.from(table.cells, (c) => cellRate(c.obs));
  const { first: jac, second } = derivatives((r, o) => estimand.evaluate(r, o), rates, s);
  const lo = Float64Array.from(boot.lo), hi = Float64Array.from(boot.hi);
  const df = new Float64Array(s).fill(NaN), matches = new Float64Array(s).fill(NaN);
  const coefs = new Float64Array(cols.length), curv = new Float64Array(cols.length);
  for (let i = 0; i < s; i++) {
    const info = boot.info[i];
    if (info.kind !== 'shift' && info.kind !== 'robustness') continue;
    let used = 0;
    for (let k = 0; k < cols.length; k++) { coefs[k] = jac[k * s + i]; curv[k] = second[k * s + i]; if (coefs[k] !== 0) used++; }
    // An R averaging several model–games keeps each pair's second-order bias while its spread
    // shrinks: its interval is centred on the bias-corrected value. One pair's R is left as it is
    // (its bias is of the order of its spread, and the correction measured worse: docs/methods.md §8.3).
    const iv = clusterLinearInterval(cols, coefs, boot.point[i], info.bounds, 0.95, info.kind === 'robustness' && used > 2 ? curv : undefined);
    lo[i] = iv.lo; hi[i] = iv.hi; df[i] = iv.df; matches[i] = iv.clusters;
  }
  const robust = bootstrapResult(estimand, boot.point, boot.replicates, boot.reps, boot.method, { lo, hi, notes: [...boot.notes], fellBack: new Set(boot.fellBack), levels: boot.levels });
  return { boot: robust, clusterRobust: { df, matches } };
}
