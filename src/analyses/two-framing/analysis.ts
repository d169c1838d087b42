import type { CellTable } from '../../core/cells.js';
import { cellId, levels } from '../../core/cells.js';
import { intervalMethodName } from '../../core/interval-name.js';
import { bootstrap, type BootstrapResult, type Estimand, type IntervalMethod } from '../../stats/bootstrap.js';
import { combineEstimands } from '../../stats/combine.js';
import { familyEstimand, familyLayout, type FamilyLayout } from './family.js';
import { twoFramingEstimand, twoFramingLayout, type TwoFramingLayout } from './estimand.js';
import { progressOf, type Logger } from '../../core/logger.js';
import { DEFAULT_ATTENUATION } from '../../sources/input.js';
import type { ClusteredIntervalMethod } from '../../stats/cluster-intervals.js';
import { withClusterRobust, type ClusterRobustInfo } from './cluster-robust.js';
import { simultaneousBands, type SimultaneousBands } from './simultaneous.js';

/** The paper's settings (Same Game, Different Story): seed, B = 10,000, a = 0.70, the framing pair. */
export const TWO_FRAMING_DEFAULTS = {
  seed: 20240818,
  reps: 10_000,
  attenuation: DEFAULT_ATTENUATION.reconstructed,
  base: 'business',
  alt: 'friend-sharing',
} as const;

export interface TwoFramingSettings {
  readonly seed: number;
  readonly reps: number;
  /** Attenuation a of the conservative transform; 1 = none. */
  readonly attenuation: number;
  readonly base: string;
  readonly alt: string;
  /** Interval method; percentile (the paper's) when absent. */
  readonly interval?: IntervalMethod;
  /** Clustered cells: cluster-robust R and shift intervals (the default with percentile), or the cluster bootstrap's. */
  readonly clusterInterval?: ClusteredIntervalMethod;
  /** Per-model intervals as simultaneous sup-t bands (`--simultaneous`); pointwise when absent. */
  readonly simultaneous?: boolean;
}

/**
 * How the intervals of an analysis were made, for captions and subtitles (`intervalMethodName`): cluster-robust, or the percentile or BCa bootstrap, of
 * clusters when a cell is clustered.
 */
export function intervalKind(a: { readonly boot: BootstrapResult; readonly clusterRobust?: ClusterRobustInfo; readonly table: CellTable }): string {
  if (a.clusterRobust) return intervalMethodName({ method: 'cluster-robust' });
  return intervalMethodName({ method: a.boot.method === 'bca' ? 'bca' : 'percentile', clustered: a.table.cells.some((c) => c.obs.kind === 'clustered') });
}


/** How the conservative statistics were made, as a phrase that follows "Table 3 values are …" (the report and the LaTeX caption). */
export function conservativeNote(a: { readonly settings: { readonly attenuation: number } }): string {
  return a.settings.attenuation === 1 ? 'without attenuation (a = 1)' : `after the conservative transform with attenuation a = ${a.settings.attenuation}`;
}

export interface TwoFramingAnalysis {
  readonly table: CellTable;
  readonly settings: TwoFramingSettings;
  readonly layout: TwoFramingLayout;
  /** Present when the table holds more than the two planned framings. */
  readonly family?: FamilyLayout;
  readonly boot: BootstrapResult;
  /** Present when the R and shift intervals are cluster-robust (clustered cells): their degrees of freedom and matches. */
  readonly clusterRobust?: ClusterRobustInfo;
  /** The per-model bands of `--simultaneous` (Table 3 shows them; checks and comparisons read the pointwise boot). */
  readonly bands?: SimultaneousBands;
}

/**
 * The two-framing analysis of any model × game × framing cell table, reconstructed or direct:
 * point estimates and one bootstrap for every statistic (and the family robustness when more
 * than two framings are present, on the same replicates). `extra` adds estimands evaluated on
 * the same replicates (e.g. the λ̂ diagnostic of a direct run).
 */
export function analyzeTwoFraming(table: CellTable, settings: TwoFramingSettings, logger?: Logger,
  extra?: (layout: TwoFramingLayout) => Estimand[]): TwoFramingAnalysis {
  const layout = twoFramingLayout(table, settings.base, settings.alt);
  const family = levels(table, 'framing').length > 2 ? familyLayout(table) : undefined;
  const estimand = combineEstimands(twoFramingEstimand(layout, settings.attenuation),
    ...(family ? [familyEstimand(family)] : []), ...(extra ? extra(layout) : []));
  const cells = table.cells.map((c) => ({ id: cellId(table.factors, c.key), obs: c.obs }));
  const drawn = bootstrap(cells, estimand, {
    seed: settings.seed,
    reps: settings.reps,
    method: settings.interval ?? 'percentile',
    onProgress: progressOf(logger, 'bootstrap'),
  });
  const { boot, clusterRobust } = withClusterRobust(table, estimand, drawn, settings);
  return { table, settings, layout, family, boot, ...(clusterRobust ? { clusterRobust } : {}),
    ...(settings.simultaneous ? { bands: simultaneousBands(boot, layout.models) } : {}) };
}
