/**
 * `samegame analyze STORE` on a context-enrichment run (seeds 000/001; DESIGN §3 "Selective
 * robustness"): the store's cell table (model × condition × world × format, per-call first-action
 * probabilities) → surface sensitivity, world responsiveness and the seed 000 metrics, all on one
 * bootstrap that resamples the calls within each cell → verdicts, imputation sensitivity, the
 * plane figure (with the published metrics beside the run when the design names them) and files.
 */
import { join, resolve } from 'node:path';
import { writeFilesAtomic, type OutputFile } from '../io/atomic.js';
import type { StoreTable } from '../io/store-table.js';
import { TrialStore } from '../live/store.js';
import { cellId, cellRate, cellSize, orderByLevels, type CellTable } from '../model/cell-table.js';
import { bootstrap, type BootstrapResult } from '../stats/bootstrap.js';
import { combineEstimands } from '../estimands/combine.js';
import { stat } from '../estimands/names.js';
import { DEFAULT_THRESHOLDS, selectiveEstimand, selectiveLayout, selectiveVerdict, type SelectiveLayout, type VerdictThresholds } from '../estimands/selective.js';
import { UserError } from '../log/errors.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { selectiveMsg } from '../log/messages-selective.js';
import { analyzeMsg } from '../log/messages-analyze.js';
import type { Figure } from '../emit/figures/figure.js';
import { figureFiles } from '../emit/render.js';
import { analyzePresentationFiles } from '../emit/analyze-outputs.js';
import { selectiveReportFile } from '../emit/selective-report.js';
import { selectiveFacts, type SelectiveFacts } from '../selective/facts.js';
import { paraphraseEstimand } from '../selective/paraphrase-estimand.js';
import { boundTables, imputationSensitivity, type ImputationSensitivity } from '../selective/imputation.js';
import { selectivePlaneFigure, type PlaneRow } from '../selective/figure.js';
import { PUBLISHED, publishedPlaneRows, type PublishedId } from '../selective/published.js';
import { cellsCsv, imputationCsv, paraphraseCsv, selectiveCsv, selectiveJson, selectiveMarkdown } from '../selective/outputs.js';
import { analyze, defaultAnalyzeOut, type AnalyzeOptions, type AnalyzeResult } from './analyze.js';
import { DEFAULTS } from './reproduce.js';

export interface SelectiveOptions {
  readonly store: string;
  readonly out?: string;
  readonly seed?: number;
  readonly reps?: number;
  readonly thresholds?: VerdictThresholds;
  readonly logger?: Logger;
  readonly dryRun?: boolean;
}

/** One model × condition: both metrics and the seed 000 metrics with their intervals, and the verdict. */
export interface SelectiveRow {
  readonly model: string;
  readonly condition: string;
  readonly ss: number; readonly ssLo: number; readonly ssHi: number;
  readonly wr: number; readonly wrLo: number; readonly wrHi: number;
  readonly verdict: string;
  readonly jsd: number; readonly jsdLo: number; readonly jsdHi: number;
  readonly dist: number; readonly distLo: number; readonly distHi: number;
  readonly ds: number; readonly dsLo: number; readonly dsHi: number;
}

export interface SelectiveCell {
  readonly model: string; readonly condition: string; readonly world: string; readonly format: string;
  readonly valid: number; readonly invalid: number; readonly error: number; readonly imputed: number;
  /** Mean first-action probability of the cell's valid calls (NaN when none). */
  readonly p: number;
}

export interface SelectiveAnalysis {
  readonly kind: 'selective';
  readonly source: StoreTable;
  readonly facts: SelectiveFacts;
  /** The store's table in design order (model, condition, world, format). */
  readonly table: CellTable;
  readonly layout: SelectiveLayout;
  readonly boot: BootstrapResult;
  readonly rows: readonly SelectiveRow[];
  readonly cells: readonly SelectiveCell[];
  readonly imputation: ImputationSensitivity;
  readonly thresholds: VerdictThresholds;
  readonly settings: { readonly seed: number; readonly reps: number };
  readonly figures: readonly Figure[];
  /** The files written (figures/ SVG and PNG only through analyzeWithFigures). */
  readonly files: readonly OutputFile[];
  readonly reportsDir: string;
  readonly outDir: string;
}

/** The table's cells in design order, so rows, tables and figures follow the design. */
function inDesignOrder(t: CellTable, f: SelectiveFacts): CellTable {
  const cells = orderByLevels(t.cells, [[(c) => c.key.model, f.models], [(c) => c.key.condition, f.conditions],
    [(c) => c.key.world, f.spec.worlds], [(c) => c.key.format, f.spec.formats]]);
  return { factors: t.factors, cells };
}

export function analyzeSelective(source: StoreTable, opts: SelectiveOptions): SelectiveAnalysis {
  const logger = opts.logger ?? silentLogger;
  const facts = selectiveFacts(source.run.designJson);
  if (!facts) throw new UserError(selectiveMsg.noEnrichment(opts.store));
  if (facts.simulated.length) logger.warn(analyzeMsg.synthetic());
  const table = inDesignOrder(source.table, facts);
  const layout = selectiveLayout(table, facts.spec);
  if (layout.groups.length === 0) throw new UserError(selectiveMsg.noCompleteGroup(opts.store));
  if (layout.missing.length) logger.warn(selectiveMsg.incompleteGroups(layout.missing));
  const settings = { seed: opts.seed ?? DEFAULTS.seed, reps: opts.reps ?? DEFAULTS.reps };
  const thresholds = opts.thresholds ?? DEFAULT_THRESHOLDS;

  const boot = bootstrap(table.cells.map((c) => ({ id: cellId(table.factors, c.key), obs: c.obs })),
    combineEstimands(selectiveEstimand(layout), paraphraseEstimand(layout)), {
      seed: settings.seed, reps: settings.reps,
      onProgress: logger.progress ? (d, t) => logger.progress!('bootstrap', d, t) : undefined,
    });
  const rows = layout.groups.map((g): SelectiveRow => {
    const s = (k: string) => boot.get(stat(k, g.model, g.condition));
    const [ss, wr, jsd, dist, ds] = ['SS', 'WR', 'JSD', 'JSDIST', 'DS'].map(s);
    return {
      model: g.model, condition: g.condition, ss: ss.point, ssLo: ss.lo, ssHi: ss.hi, wr: wr.point, wrLo: wr.lo, wrHi: wr.hi,
      verdict: selectiveVerdict(ss.point, wr.lo, thresholds),
      jsd: jsd.point, jsdLo: jsd.lo, jsdHi: jsd.hi, dist: dist.point, distLo: dist.lo, distHi: dist.hi, ds: ds.point, dsLo: ds.lo, dsHi: ds.hi,
    };
  });

  const store = TrialStore.openExisting(opts.store);
  let imputation: ImputationSensitivity;
  let imputedByCell: readonly number[];
  try {
    const b = boundTables(store, source.run.id, table);
    imputation = imputationSensitivity(table, layout, b);
    imputedByCell = b.imputedByCell;
  } finally {
    store.close();
  }
  if (imputation.imputed > 0) logger.info(selectiveMsg.imputed(imputation.imputed, imputation.scored));

  const tally = new Map(source.tallies.map((t) => [JSON.stringify([t.model, t.framing]), t]));
  const cells: SelectiveCell[] = table.cells.map((c, i) => {
    const t = tally.get(JSON.stringify([c.key.model, c.key.framing]));
    return { model: c.key.model, condition: c.key.condition, world: c.key.world, format: c.key.format,
      valid: cellSize(c.obs), invalid: t?.invalid ?? 0, error: t?.error ?? 0, imputed: imputedByCell[i], p: cellRate(c.obs) };
  });

  const outDir = resolve(opts.out ?? defaultAnalyzeOut(opts.store));
  const reportsDir = join(outDir, 'reports');
  const partial = { kind: 'selective' as const, source, facts, table, layout, boot, rows, cells, imputation, thresholds, settings, reportsDir, outDir };
  const figures = [selectivePlane(partial)];
  const analysis: SelectiveAnalysis = { ...partial, figures, files: [] };
  const files: OutputFile[] = [
    { path: join(reportsDir, 'selective.csv'), content: selectiveCsv(rows) },
    { path: join(reportsDir, 'selective-paraphrase.csv'), content: paraphraseCsv(rows) },
    { path: join(reportsDir, 'selective-cells.csv'), content: cellsCsv(analysis) },
    { path: join(reportsDir, 'selective-imputation.csv'), content: imputationCsv(analysis) },
    { path: join(reportsDir, 'selective.json'), content: selectiveJson(analysis) },
    { path: join(reportsDir, 'selective.md'), content: selectiveMarkdown(analysis) },
  ];
  if (!opts.dryRun) writeFilesAtomic(files);
  return { ...analysis, files };
}

/** The run's plane, with the published metrics in a panel beside it when the design names them. */
function selectivePlane(a: Pick<SelectiveAnalysis, 'source' | 'facts' | 'rows' | 'thresholds' | 'settings'>): Figure {
  const label = `This run: ${a.source.run.designName}${a.facts.simulated.length ? ' (synthetic)' : ''}`;
  const mine: PlaneRow[] = a.rows.map((r) => ({ source: label, model: r.model, condition: r.condition, ss: r.ss, ssLo: r.ssLo, ssHi: r.ssHi, wr: r.wr, wrLo: r.wrLo, wrHi: r.wrHi, verdict: r.verdict }));
  const ref = a.facts.publishedReference as PublishedId | undefined;
  const published = ref && ref in PUBLISHED ? publishedPlaneRows(ref) : [];
  return selectivePlaneFigure([...mine, ...published], {
    subtitle: `${a.facts.spec.worlds[0]} − ${a.facts.spec.worlds[1]}; 95 % intervals, ${a.settings.reps} replicates${published.length ? '; right: the published table' : ''}`,
    conditions: a.facts.conditions, thresholds: a.thresholds,
  });
}

/** The published table alone on the plane (the same figure function as a run's). */
export function publishedPlane(id: PublishedId = 'greiche-2026'): Figure {
  return selectivePlaneFigure(publishedPlaneRows(id), {
    id: 'selective-plane-published', subtitle: 'Seed 001 results table (points / 100); 95 % bootstrap intervals as published',
    conditions: ['minimal', 'neutral-padding', 'generic-social', 'descriptive-grounding', 'normative-grounding'],
  });
}

export type AnyAnalysis = AnalyzeResult | SelectiveAnalysis;
export const isSelectiveAnalysis = (a: AnyAnalysis): a is SelectiveAnalysis => (a as SelectiveAnalysis).kind === 'selective';

/**
 * `samegame analyze` as the CLI runs it: `analyze` plus its figures (spec, SVG, PNG) and, for a
 * two-framing run, reports/report.html; for a context-enrichment run, the plane figure — every file written as one atomic set. Rendering is async (Vega's
 * dataflow), hence this wrapper, as reproduceWithFigures is for reproduce.
 */
export async function analyzeWithFigures(opts: AnalyzeOptions): Promise<AnyAnalysis> {
  const res = analyze({ ...opts, dryRun: true });
  if (!isSelectiveAnalysis(res)) {
    const files = [...res.files, ...await analyzePresentationFiles(res, opts.logger)];
    if (!opts.dryRun) writeFilesAtomic(files);
    return { ...res, files };
  }
  const files = [...res.files, ...await figureFiles(res.figures, res.outDir, opts.logger), selectiveReportFile(res)];
  if (!opts.dryRun) writeFilesAtomic(files);
  return { ...res, files };
}
