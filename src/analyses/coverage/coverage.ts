import type { CellTable } from '../../core/cells.js';
import { cellId, cellRate, cellSize, levels } from '../../core/cells.js';
import { POOLED, stat, statLabel } from '../../core/names.js';
import { BinomialSampler } from '../../stats/binomial.js';
import { bcaIntervals, bootstrap, type IntervalMethod } from '../../stats/bootstrap.js';
import { combineEstimands } from '../../stats/combine.js';
import { streamFor } from '../../stats/rng.js';
import { familyEstimand, familyLayout, twoFramingEstimand, twoFramingLayout, type TwoFramingSettings } from '../two-framing/index.js';
import { table3Columns } from '../../stats/table3.js';

/** Where the simulated truth comes from: the observed rates, or rates moved so that the framings of each model–game agree. */
export type CoverageTruth = 'observed' | 'equal';

export interface CoverageSettings {
  readonly sims: number;
  readonly methods: readonly IntervalMethod[];
  readonly truth: CoverageTruth;
  readonly level: number;
}

export const COVERAGE_DEFAULTS = { sims: 200, reps: 2000, truth: 'observed', level: 0.95 } as const;

/** One row of reports/coverage.csv. */
export interface CoverageRow {
  readonly statistic: string;
  readonly method: IntervalMethod;
  readonly nominal: number;
  /** Share of simulations whose interval contains the truth. */
  readonly coverage: number;
  /** Monte Carlo standard error of the coverage, √(c(1 − c)/sims). */
  readonly mc_se: number;
  readonly mean_width: number;
  readonly truth: number;
}

export interface CoverageResult {
  readonly settings: TwoFramingSettings & CoverageSettings;
  readonly rows: readonly CoverageRow[];
  /** The true rate of every cell, in table order. */
  readonly truthRates: readonly number[];
}

/**
 * The true rates of the simulation: the observed ones, or (truth 'equal') each model–game's
 * framings set to its pooled rate Σx/Σn, so that every R is exactly 1 and every shift 0.
 */
export function truthRates(table: CellTable, truth: CoverageTruth): number[] {
  const observed = table.cells.map((c) => cellRate(c.obs));
  if (truth === 'observed') return observed;
  const sums = new Map<string, { x: number; n: number }>();
  const mg = (i: number) => JSON.stringify([table.cells[i].key.model, table.cells[i].key.game]);
  table.cells.forEach((c, i) => {
    const s = sums.get(mg(i)) ?? { x: 0, n: 0 };
    s.x += observed[i] * cellSize(c.obs); s.n += cellSize(c.obs);
    sums.set(mg(i), s);
  });
  return table.cells.map((_, i) => { const s = sums.get(mg(i))!; return s.x / s.n; });
}

/** The reported statistics whose coverage is measured: per-model and pooled Table 3 columns (R, shift), and family R when present. */
function coveredNames(models: readonly string[], family: boolean): string[] {
  const groups = [...models, POOLED];
  return [...groups.flatMap((g) => table3Columns().map((c) => stat(c.names.groupConservative, g))), ...(family ? groups.map((g) => stat('Rfam', g)) : [])];
}

/**
 * Coverage of the bootstrap intervals on the user's own design: each simulation redraws every cell
 * as Binomial(n, p_true) (same cells, same n), runs the full bootstrap, and asks whether each
 * interval contains the statistic's true value (the estimand evaluated on the true rates).
 * Simulation s draws its cells from streams (seed, "coverage s cell") and bootstraps with seed + 1 + s.
 */
export function coverageStudy(table: CellTable, settings: TwoFramingSettings & CoverageSettings,
  onProgress?: (done: number, total: number) => void): CoverageResult {
  const layout = twoFramingLayout(table, settings.base, settings.alt);
  const family = levels(table, 'framing').length > 2;
  const estimand = combineEstimands(twoFramingEstimand(layout, settings.attenuation), ...(family ? [familyEstimand(familyLayout(table))] : []));
  const names = coveredNames(layout.models, family);
  const idx = names.map((n) => estimand.names.indexOf(n));
  const p = truthRates(table, settings.truth);
  const truth = new Float64Array(estimand.names.length);
  estimand.evaluate(Float64Array.from(p), truth);

  const ids = table.cells.map((c) => cellId(table.factors, c.key));
  const ns = table.cells.map((c) => cellSize(c.obs));
  const samplers = ns.map((n, i) => new BinomialSampler(n, p[i]));
  const covered = settings.methods.map(() => new Float64Array(names.length));
  const width = settings.methods.map(() => new Float64Array(names.length));
  for (let s = 0; s < settings.sims; s++) {
    const cells = ids.map((id, i) => ({ id, obs: { kind: 'binary' as const, n: ns[i], x: samplers[i].draw(streamFor(settings.seed, `coverage\u0000${s}\u0000${id}`)) } }));
    const boot = bootstrap(cells, estimand, { seed: settings.seed + 1 + s, reps: settings.reps, level: settings.level });
    settings.methods.forEach((m, k) => {
      const iv = m === 'bca'
        ? bcaIntervals(cells, estimand, Float64Array.from(cells, (c) => c.obs.x / c.obs.n), boot.point, boot.replicates, settings.reps, settings.level)
        : boot;
      idx.forEach((j, r) => {
        const t = truth[j];
        if (iv.lo[j] <= t + 1e-12 && t <= iv.hi[j] + 1e-12) covered[k][r]++;
        width[k][r] += iv.hi[j] - iv.lo[j];
      });
    });
    onProgress?.(s + 1, settings.sims);
  }
  const rows = names.flatMap((n, r) => settings.methods.map((method, k): CoverageRow => {
    const c = covered[k][r] / settings.sims;
    const [kind, parts] = [n.slice(0, n.indexOf('[')), JSON.parse(n.slice(n.indexOf('['))) as string[]];
    return { statistic: statLabel(kind, ...parts), method, nominal: settings.level, coverage: c,
      mc_se: Math.sqrt((c * (1 - c)) / settings.sims), mean_width: width[k][r] / settings.sims, truth: truth[idx[r]] };
  }));
  return { settings, rows, truthRates: p };
}
