import type { CellTable } from '../../core/cells.js';
import { cellRate, cellSize, levels } from '../../core/cells.js';
import { POOLED, stat, statLabel } from '../../core/names.js';
import type { IntervalMethod } from '../../stats/bootstrap.js';
import { combineEstimands } from '../../stats/combine.js';
import { FAMILY_R, table3Columns } from '../../stats/table3.js';
import { clopperPearson, type ClusteredIntervalMethod } from '../../stats/cluster-intervals.js';
import { Z95 } from '../../stats/normal.js';
import { analyzeTwoFraming, familyEstimand, familyLayout, twoFramingEstimand, twoFramingLayout, type TwoFramingSettings } from '../two-framing/index.js';
import { rateHits, simDesign, simTable, simTruth, type CoverageTruth } from './simulate.js';

export type { CoverageTruth } from './simulate.js';

/** An interval method whose coverage is measured: the bootstrap's (percentile, BCa) or, for clustered cells, cluster-robust and the cluster bootstrap. */
export type CoverageMethod = IntervalMethod | ClusteredIntervalMethod;

export interface CoverageSettings {
  readonly sims: number;
  readonly methods: readonly CoverageMethod[];
  readonly truth: CoverageTruth;
  readonly level: number;
}

export const COVERAGE_DEFAULTS = { sims: 200, reps: 2000, truth: 'jeffreys', level: 0.95 } as const;

/** One row of reports/coverage.csv. */
export interface CoverageRow {
  readonly statistic: string;
  readonly method: CoverageMethod;
  readonly nominal: number;
  /** Share of simulations whose interval contains the truth (a simulation without an interval does not). */
  readonly coverage: number;
  /**
   * Monte Carlo standard error of the coverage, √(c(1 − c)/sims); at a coverage of 0 or 1, where
   * that is 0, the Wilson (Agresti–Coull) one, √(c̃(1 − c̃)/(sims + z²)) with c̃ = (covered + z²/2)/(sims + z²), z = 1.96.
   */
  readonly mc_se: number;
  readonly mean_width: number;
  /** The statistic's true value (its mean over the simulations when the truth is drawn afresh for each). */
  readonly truth: number;
  /** Monte Carlo 95 % interval of the coverage: Clopper–Pearson on covered of sims (MC_LEVEL). */
  readonly coverage_lo: number;
  readonly coverage_hi: number;
}

/** Level of the Monte Carlo interval of a coverage (coverage_lo, coverage_hi). */
export const MC_LEVEL = 0.95;

/** A coverage of `covered` in `n` with its Monte Carlo error: the plug-in s.e. (Wilson's at 0 or 1) and the Clopper–Pearson interval. */
export function mcCoverage(covered: number, n: number): Pick<CoverageRow, 'coverage' | 'mc_se' | 'coverage_lo' | 'coverage_hi'> {
  const c = covered / n;
  const [lo, hi] = clopperPearson(c, n, MC_LEVEL);
  const z2 = Z95 * Z95, t = (covered + z2 / 2) / (n + z2);
  const se = c === 0 || c === 1 ? Math.sqrt((t * (1 - t)) / (n + z2)) : Math.sqrt((c * (1 - c)) / n);
  return { coverage: c, mc_se: se, coverage_lo: lo, coverage_hi: hi };
}

export interface CoverageResult {
  readonly settings: TwoFramingSettings & CoverageSettings;
  readonly rows: readonly CoverageRow[];
  /** The true rate of every cell, in table order (the observed rates when the truth is drawn around them). */
  readonly truthRates: readonly number[];
  /** Within-match correlation the clustered cells were simulated with (0 when none). */
  readonly icc: number;
}

/**
 * The fixed true rates of the simulation: the observed ones (truth 'observed' and, as the centre of
 * its draws, 'jeffreys'), or (truth 'equal') each model–game's framings set to its pooled rate
 * Σx/Σn, so that every R is exactly 1 and every shift 0.
 */
export function truthRates(table: CellTable, truth: CoverageTruth): number[] {
  const observed = table.cells.map((c) => cellRate(c.obs));
  if (truth !== 'equal') return observed;
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
  return [...groups.flatMap((g) => table3Columns().map((c) => stat(c.names.groupConservative, g))), ...(family ? groups.map((g) => stat(FAMILY_R, g)) : [])];
}

/** The two-framing settings that make a method's intervals, as analyze and reproduce make them. */
function methodSettings(settings: TwoFramingSettings, m: CoverageMethod): TwoFramingSettings {
  if (m === 'cluster-bootstrap') return { ...settings, interval: 'percentile', clusterInterval: 'cluster-bootstrap' };
  if (m === 'cluster-robust') return { ...settings, interval: 'percentile', clusterInterval: 'cluster-robust' };
  return { ...settings, interval: m };
}

/**
 * Coverage of the intervals samegame reports on the user's own design: each simulation draws true
 * rates (fixed, or around the observed ones), redraws every cell as the design has it (binary:
 * Binomial(n, p); clustered: the same matches, beta-binomial with the estimated within-match
 * correlation), runs the two-framing analysis exactly as analyze and reproduce do with each
 * method, and asks whether each interval contains the statistic's true value (the estimand on the
 * true rates). Simulation s draws truths from (seed, "truth s cell"), data from
 * (seed, "coverage s cell"), and bootstraps with seed + 1 + s.
 */
export function coverageStudy(table: CellTable, settings: TwoFramingSettings & CoverageSettings,
  onProgress?: (done: number, total: number) => void): CoverageResult {
  const layout = twoFramingLayout(table, settings.base, settings.alt);
  const family = levels(table, 'framing').length > 2;
  const estimand = combineEstimands(twoFramingEstimand(layout, settings.attenuation), ...(family ? [familyEstimand(familyLayout(table))] : []));
  const names = coveredNames(layout.models, family);
  const idx = names.map((n) => estimand.names.indexOf(n));
  const design = simDesign(table);
  const fixed = settings.truth === 'jeffreys' ? undefined : truthRates(table, settings.truth);
  const truth = new Float64Array(estimand.names.length), truthSum = new Float64Array(names.length);
  const covered = settings.methods.map(() => new Float64Array(names.length));
  const width = settings.methods.map(() => new Float64Array(names.length));
  const given = settings.methods.map(() => new Float64Array(names.length)); // simulations with an interval (none below 3 matches)
  // clustered cells: each cell's rate interval as the repeated tables print it, pooled over cells
  const rates = settings.methods.map(() => ({ hit: 0, of: 0, width: 0 }));
  const clusteredRates = table.cells.some((c) => c.obs.kind === 'clustered');
  for (let s = 0; s < settings.sims; s++) {
    const p = simTruth(design, fixed, settings.seed, s);
    estimand.evaluate(Float64Array.from(p), truth);
    idx.forEach((j, r) => { truthSum[r] += truth[j]; });
    const sim = simTable(design, p, settings.seed, s);
    settings.methods.forEach((m, k) => {
      const { boot } = analyzeTwoFraming(sim, { ...methodSettings(settings, m), seed: settings.seed + 1 + s });
      idx.forEach((j, r) => {
        const name = estimand.names[j], lo = boot.get(name).lo, hi = boot.get(name).hi, t = truth[j];
        if (lo <= t + 1e-12 && t <= hi + 1e-12) covered[k][r]++;
        if (hi >= lo) { width[k][r] += hi - lo; given[k][r]++; }
      });
      if (clusteredRates && (m === 'cluster-robust' || m === 'cluster-bootstrap')) {
        for (const h of rateHits(sim, p, m, settings.seed + 1 + s, settings.reps)) if (h !== undefined) { rates[k].of++; rates[k].width += h.width;
          if (h.hit) rates[k].hit++; }
      }
    });
    onProgress?.(s + 1, settings.sims);
  }
  const rows = names.flatMap((n, r) => settings.methods.map((method, k): CoverageRow => {
    const [kind, parts] = [n.slice(0, n.indexOf('[')), JSON.parse(n.slice(n.indexOf('['))) as string[]];
    return { statistic: statLabel(kind, ...parts), method, nominal: settings.level, ...mcCoverage(covered[k][r], settings.sims),
      mean_width: width[k][r] / given[k][r], truth: truthSum[r] / settings.sims };
  }));
  const rateRows = settings.methods.flatMap((method, k): CoverageRow[] => {
    const { hit, of, width: w } = rates[k];
    if (of === 0) return [];
    return [{ statistic: 'rate (each clustered cell)', method, nominal: settings.level, ...mcCoverage(hit, of), mean_width: w / of, truth: NaN }];
  });
  return { settings, rows: [...rows, ...rateRows], truthRates: fixed ?? design.rates, icc: design.rho };
}
