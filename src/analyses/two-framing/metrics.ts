import { bandColumnsText, bandConstantsText } from './simultaneous.js';
import { jsonText } from '../../core/format.js';
import { cellRate, cellSize, isDegenerate, type CellTable } from '../../core/cells.js';
import { POOLED, stat } from '../../core/names.js';
import type { TwoFramingAnalysis } from './analysis.js';
import type { Interval } from '../../stats/bootstrap.js';
import { FAMILY_R, table3Columns } from '../../stats/table3.js';
import { framingTestMetrics, hasFramingTests } from './framing-tests.js';
import { invalidBounds, knowsInvalid } from './invalid-bounds.js';
import { shownVariants } from './tables.js';

export interface InputProvenance {
  readonly path: string;
  readonly sha256: string;
  readonly kind: string;
}

/** How the bootstrap redraws cells; says so when clusters, not decisions, are resampled. */
export function resamplingNote(table: CellTable): string {
  const base = 'every cell redrawn independently each replicate (binary: Binomial(n, x/n); probability cells: trials with replacement)';
  return table.cells.some((c) => c.obs.kind === 'clustered')
    ? `${base}; clustered bootstrap: clustered cells redraw whole clusters with replacement, the rate being the mean over the drawn clusters' decisions`
    : base;
}

/** One cell's facts for metrics.json: size, count, rate, degenerate, clusters, invalid, the reported rate. */
function cellFacts(table: CellTable, i: number) {
  const c = table.cells[i];
  return {
    n: cellSize(c.obs),
    ...(c.invalid !== undefined ? { invalid: c.invalid } : {}),
    count: c.obs.kind === 'binary' ? c.obs.x : null,
    rate: cellRate(c.obs),
    degenerate: isDegenerate(c.obs),
    ...(c.obs.kind === 'clustered' ? { clusters: c.obs.sizes.length } : {}),
    ...(c.provenance?.rate !== undefined ? { reported_rate: c.provenance.rate } : {}),
  };
}

const iv = (x: Interval) => ({ point: x.point, lo: x.lo, hi: x.hi });

/** What table3.csv's variant columns are (stats/table3.ts `table3Variants`). */
const VARIANTS_NOTE = 'R (plug-in) keeps the interval above; R_corrected is the bias-corrected R with its 95% interval by inverting the R = 1 test, '
  + 'shift_wilson_lo/hi the shift\'s 95% MOVER-Wilson interval (docs/methods.md 8.5)';

/**
 * metrics.json: every cell's raw and conservative statistics, per model, pooled, intervals and
 * the settings. No timestamps, so the file is byte-identical for the same input and seed.
 */
export function metricsObject(a: TwoFramingAnalysis, input: InputProvenance, tool: { name: string; version: string }) {
  const { boot, layout, table, settings } = a;
  const cellInfo = (i: number) => cellFacts(table, i);
  const cols = table3Columns();
  const group = (g: string) => ({
    ...Object.fromEntries(cols.map((c) => [c.names.group, iv(boot.get(stat(c.names.group, g)))])),
    ...Object.fromEntries(cols.map((c) => [c.names.groupConservative, iv(boot.get(stat(c.names.groupConservative, g)))])),
    ...(a.family ? { R_family: iv(boot.get(stat(FAMILY_R, g))) } : {}),
  });
  return {
    tool,
    settings: {
      seed: settings.seed,
      reps: settings.reps,
      attenuation: settings.attenuation,
      base: settings.base,
      alt: settings.alt,
      interval: a.clusterRobust
        ? ('95% cluster-robust for every R and shift (CR2 variance, Satterthwaite degrees of freedom, the match as the cluster; delta method; ' +
          'docs/methods.md 8.4); other statistics 95% percentile cluster bootstrap')
        : boot.method === 'bca'
        ? ('95% BCa bootstrap (bias-corrected and accelerated, as scipy.stats.bootstrap method=BCa; acceleration from the jackknife over every trial of ' +
          'every cell), linear interpolation between order statistics')
        : '95% percentile bootstrap, linear interpolation between order statistics',
      ...(boot.notes.length ? { interval_notes: [...boot.notes] } : {}),
      ...(shownVariants(a).length ? { table3_variants: VARIANTS_NOTE } : {}),
      ...(a.bands ? { simultaneous: (`per-model ${bandColumnsText()} in table3.csv: simultaneous 95% sup-t bands over the models `
        + `(c = ${bandConstantsText(a.bands.c, String)}; Montiel Olea and Plagborg-Moller 2019); metrics below and Pooled pointwise`) } : {}),
      resampling: resamplingNote(table),
      jsd: 'Jensen-Shannon divergence, natural log (not the distance)',
      conservative: 'shift_c = a * shift; R_c = 1 - a * (1 - R2)',
    },
    input: {
      ...input,
      cells: table.cells.length,
      decisions: table.cells.reduce((s, c) => s + cellSize(c.obs), 0),
    },
    cells: layout.pairs.map((p) => ({
      model: p.model,
      game: p.game,
      base: { framing: layout.base, ...cellInfo(p.baseIndex) },
      alt: { framing: layout.alt, ...cellInfo(p.altIndex) },
      ...(knowsInvalid(table) ? { invalid_bounds: invalidBounds(table, p) } : {}),
      ...Object.fromEntries(cols.map((c) => [c.names.cell, iv(boot.get(stat(c.names.cell, p.model, p.game)))])),
      ...Object.fromEntries(cols.map((c) => [c.names.cellConservative, iv(boot.get(stat(c.names.cellConservative, p.model, p.game)))])),
      ...(a.family ? { R_family: iv(boot.get(stat(FAMILY_R, p.model, p.game))) } : {}),
    })),
    models: layout.models.map((m) => ({ model: m, ...group(m) })),
    pooled: group(POOLED),
    ...(a.family ? { framings: a.family.framings } : {}),
    ...(hasFramingTests(a) ? { framing_tests: framingTestMetrics(a) } : {}),
  };
}

/** metrics.json text; `extra` appends fields (a direct run's invalid counts, λ̂ …). */
export function metricsJson(a: TwoFramingAnalysis, input: InputProvenance, tool: { name: string; version: string },
  extra: Record<string, unknown> = {}): string {
  return jsonText({ ...metricsObject(a, input, tool), ...extra }, 2) + '\n';
}
