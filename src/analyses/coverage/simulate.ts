/**
 * One simulated data set of a coverage study (docs/methods.md §17): the user's cells as they are —
 * binary cells with the same n, clustered cells with the same matches and match lengths — drawn
 * from true rates that are either fixed (observed, equal) or drawn afresh for each data set around
 * the observed ones (Jeffreys), clustered cells with the within-match correlation estimated from
 * the data (beta-binomial).
 */
import type { Cell, CellTable } from '../../core/cells.js';
import { cellId, cellRate, cellSize } from '../../core/cells.js';
import { binomialSampler } from '../../stats/binomial.js';
import { drawMatches, jeffreysTruth, pooledIcc } from '../../stats/beta-binomial.js';
import { streamFor } from '../../stats/rng.js';
import { clusterCount, clusterRateInterval, MIN_CLUSTERS } from '../../stats/cluster-intervals.js';
import { groupBootstrap } from '../../stats/group-bootstrap.js';

/** Where the simulated truth comes from: drawn around the observed rates (jeffreys), the observed rates, or framings made equal. */
export type CoverageTruth = 'jeffreys' | 'observed' | 'equal';

/** The design's fixed parts: cell ids, sizes, match lengths, the correlation of clustered cells. */
export interface SimDesign {
  readonly table: CellTable;
  readonly ids: readonly string[];
  readonly rates: readonly number[];
  /** Within-match correlation of the clustered cells (0 when none). */
  readonly rho: number;
}

export function simDesign(table: CellTable): SimDesign {
  const clustered = table.cells.flatMap((c) => (c.obs.kind === 'clustered' ? [c.obs] : []));
  return { table, ids: table.cells.map((c) => cellId(table.factors, c.key)), rates: table.cells.map((c) => cellRate(c.obs)), rho: pooledIcc(clustered) };
}

/**
 * The true rates of one simulation: the given fixed ones, or (jeffreys) each cell's drawn from the
 * Jeffreys posterior of its counts — on its effective sample size when clustered — from the stream
 * (seed, "truth s cell").
 */
export function simTruth(d: SimDesign, fixed: readonly number[] | undefined, seed: number, s: number): number[] {
  if (fixed) return [...fixed];
  return d.table.cells.map((c, i) => {
    const rng = streamFor(seed, `truth\u0000${s}\u0000${d.ids[i]}`);
    const n = cellSize(c.obs);
    const meanLength = c.obs.kind === 'clustered' ? n / c.obs.sizes.length : 1;
    return jeffreysTruth(d.rates[i], n, meanLength, c.obs.kind === 'clustered' ? d.rho : 0, rng);
  });
}

/** One simulated cell table from true rates p, each cell from its stream (seed, "coverage s cell"). */
export function simTable(d: SimDesign, p: readonly number[], seed: number, s: number): CellTable {
  const cells: Cell[] = d.table.cells.map((c, i) => {
    const rng = streamFor(seed, `coverage\u0000${s}\u0000${d.ids[i]}`);
    if (c.obs.kind === 'clustered') return { key: c.key, obs: { kind: 'clustered', sizes: c.obs.sizes, sums: drawMatches(c.obs.sizes, p[i], d.rho, rng) } };
    const n = cellSize(c.obs);
    return { key: c.key, obs: { kind: 'binary', n, x: binomialSampler(n, p[i]).draw(rng) } };
  });
  return { factors: d.table.factors, cells };
}

/**
 * Whether each clustered cell's rate interval — as the repeated tables print it (cells.csv …):
 * cluster-robust, or the percentile cluster bootstrap (B = reps, stream (seed, cell)) — holds the
 * cell's true rate; undefined for a cell that is not clustered or has no interval (fewer than 3
 * matches).
 */
export function rateHits(sim: CellTable, p: readonly number[], method: string, seed: number, reps: number): ({ hit: boolean; width: number } | undefined)[] {
  return sim.cells.map((c, i) => {
    if (c.obs.kind !== 'clustered') return undefined;
    let lo: number, hi: number;
    if (method === 'cluster-bootstrap') {
      if (clusterCount(c.obs) < MIN_CLUSTERS) return undefined;
      const rate = { names: ['rate'], evaluate: (r: Float64Array, out: Float64Array) => { out[0] = r[0]; } };
      const b = groupBootstrap([{ id: String(i), columns: { sizes: [c.obs.sizes], sums: [c.obs.sums] } }], rate, { seed, reps });
      [lo, hi] = [b.lo[0], b.hi[0]];
    } else ({ lo, hi } = clusterRateInterval(c.obs));
    if (!(hi >= lo)) return undefined;
    return { hit: lo <= p[i] + 1e-12 && p[i] <= hi + 1e-12, width: hi - lo };
  });
}
