import type { ClusteredObservations } from '../core/cells.js';

/**
 * Leave-one-cluster-out rates of a clustered cell: value j is the cell's rate with cluster j left
 * out, (Σ sums − sums[j]) / (Σ sizes − sizes[j]). These are the jackknife values of the cell for a
 * BCa acceleration over clusters (the unit the clustered bootstrap resamples); a cell with one
 * cluster has no leave-one-out value (NaN).
 */
export function leaveOneClusterOut(obs: ClusteredObservations): Float64Array {
  const m = obs.sizes.length;
  let s = 0;
  let n = 0;
  for (let j = 0; j < m; j++) { s += obs.sums[j]; n += obs.sizes[j]; }
  const out = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    const rest = n - obs.sizes[j];
    out[j] = rest > 0 ? (s - obs.sums[j]) / rest : NaN;
  }
  return out;
}
