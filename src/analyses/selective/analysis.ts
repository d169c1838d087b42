/**
 * `samegame analyze STORE` on a context-enrichment run (the context-enrichment paper; docs/methods.md "Selective
 * robustness"): the store's cell table (model × condition × world × format, per-call first-action
 * probabilities) → surface sensitivity, world responsiveness and the context-enrichment summary metrics, all on one
 * bootstrap that resamples the calls within each cell → verdicts, imputation sensitivity, the
 * plane figure (with the published metrics beside the run when the design names them) and files.
 */
import { join, resolve } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import type { BoundTables, StoreTable } from '../../sources/store.js';
import { cellId, cellRate, cellSize, orderByLevels, type CellTable } from '../../core/cells.js';
import { bootstrap } from '../../stats/bootstrap.js';
import { combineEstimands } from '../../stats/combine.js';
import { stat } from '../../core/names.js';
import { DEFAULT_THRESHOLDS, selectiveEstimand, selectiveLayout, type SelectiveLayout, type VerdictThresholds } from './estimand.js';
import { directionalVerdict, equivalenceVerdict, invarianceVerdict, surfaceBounds, surfaceDifferenceEstimand } from './equivalence.js';
import { UserError } from '../../core/errors.js';
import { progressOf, silentLogger, type Logger } from '../../core/logger.js';
import { sha256File } from '../../core/hash.js';
import { regenerateCommand } from '../../core/command-line.js';
import type { BootstrapResult } from '../../stats/bootstrap.js';
import { analyzeMsg } from '../../core/messages/analyze.js';
import type { Figure } from '../../render/figure.js';
import { selectiveFacts, type SelectiveFacts } from './facts.js';
import { paraphraseEstimand } from './paraphrase-estimand.js';
import { imputationSensitivity } from './imputation.js';
import { selectivePlaneFigure, type PlaneRow } from './figure.js';
import { namedSelective } from './names.js';
import { PUBLISHED, publishedPlaneRows, type PublishedId } from './published.js';
import { cellsCsv, equivalenceCsv, imputationCsv, paraphraseCsv, selectiveCsv, selectiveJson, selectiveMarkdown } from './outputs.js';
import { selectiveLatex } from './latex.js';
import { TWO_FRAMING_DEFAULTS as DEFAULTS } from '../two-framing/index.js';

import type { SelectiveAnalysis, SelectiveCell, SelectiveOptions, SelectiveRow } from './types.js';
import { analysesSelectiveMsg } from './messages.js';
export type { SelectiveAnalysis, SelectiveCell, SelectiveOptions, SelectiveRow } from './types.js';

/** The indices of the table's cells in design order, so rows, tables and figures follow the design. */
function designOrder(t: CellTable, f: SelectiveFacts): number[] {
  const key = (i: number) => t.cells[i].key;
  return orderByLevels(t.cells.map((_, i) => i), [[(i) => key(i).model, f.models], [(i) => key(i).condition, f.conditions],
    [(i) => key(i).world, f.spec.worlds], [(i) => key(i).format, f.spec.formats]]);
}

/** A table's cells in the given order (indices of its cells). */
const pick = (t: CellTable, order: readonly number[]): CellTable => ({ factors: t.factors, cells: order.map((i) => t.cells[i]) });

/** The store's imputation bounds (read with its table, sources/enrichment-store.ts) in the same order as the table. */
function boundsInOrder(source: StoreTable, order: readonly number[], store: string): BoundTables {
  const b = source.imputation;
  if (!b) throw new UserError(analysesSelectiveMsg.noEnrichment(store)); // read for a context-enrichment run only
  return { ...b, zero: pick(b.zero, order), full: pick(b.full, order), imputedByCell: order.map((i) => b.imputedByCell[i]) };
}

/** Facts, ordered table and layout of a context-enrichment store; a store without a complete group is refused. */
function selectiveInput(source: StoreTable, opts: SelectiveOptions, logger: Logger) {
  const facts = selectiveFacts(source.run.designJson);
  if (!facts) throw new UserError(analysesSelectiveMsg.noEnrichment(opts.store));
  if (facts.simulated.length) logger.warn(analyzeMsg.synthetic());
  const order = designOrder(source.table, facts);
  const table = pick(source.table, order);
  const bounds = boundsInOrder(source, order, opts.store);
  const layout = selectiveLayout(table, facts.spec);
  if (layout.groups.length === 0) throw new UserError(analysesSelectiveMsg.noCompleteGroup(opts.store));
  if (layout.missing.length) logger.warn(analysesSelectiveMsg.incompleteGroups(layout.missing));
  return { facts, table, layout, bounds };
}

/** One bootstrap of every selective statistic, and the rows (with verdicts) read from it. */
function selectiveRows(table: CellTable, layout: SelectiveLayout, settings: { seed: number; reps: number },
  thresholds: VerdictThresholds, logger: Logger): { boot: BootstrapResult; rows: SelectiveRow[] } {
  const boot = bootstrap(table.cells.map((c) => ({ id: cellId(table.factors, c.key), obs: c.obs })),
    combineEstimands(selectiveEstimand(layout), paraphraseEstimand(layout), surfaceDifferenceEstimand(layout)), {
      seed: settings.seed, reps: settings.reps,
      onProgress: progressOf(logger, 'bootstrap'),
    });
  const rows = layout.groups.map((g): SelectiveRow => {
    const s = (k: string) => boot.get(stat(k, g.model, g.condition));
    const [ss, wr, jsd, dist, ds] = ['SS', 'WR', 'JSD', 'JSDIST', 'DS'].map(s);
    const bounds = surfaceBounds(boot, layout, g);
    const invariance = invarianceVerdict(bounds, thresholds);
    return {
      model: g.model, condition: g.condition, ss: ss.point, ssLo: ss.lo, ssHi: ss.hi, wr: wr.point, wrLo: wr.lo, wrHi: wr.hi,
      verdict: equivalenceVerdict(invariance, wr.lo, thresholds),
      ssLower: bounds.lower, ssUpper: bounds.upper, invariance, directional: directionalVerdict(ds.lo, ds.hi, thresholds),
      jsd: jsd.point, jsdLo: jsd.lo, jsdHi: jsd.hi, dist: dist.point, distLo: dist.lo, distHi: dist.hi, ds: ds.point, dsLo: ds.lo, dsHi: ds.hi,
    };
  });
  return { boot, rows };
}

/** The imputation sensitivity (the store's per-call candidates, as read with its table) and the per-cell summary. */
function selectiveCells(source: StoreTable, bounds: BoundTables, table: CellTable, layout: SelectiveLayout, logger: Logger) {
  const imputation = imputationSensitivity(table, layout, bounds);
  const imputedByCell = bounds.imputedByCell;
  if (imputation.imputed > 0) logger.info(analysesSelectiveMsg.imputed(imputation.imputed, imputation.scored));
  const tally = new Map(source.tallies.map((t) => [JSON.stringify([t.model, t.framing]), t]));
  const cells: SelectiveCell[] = table.cells.map((c, i) => {
    const t = tally.get(JSON.stringify([c.key.model, c.key.framing]));
    return { model: c.key.model, condition: c.key.condition, world: c.key.world, format: c.key.format,
      valid: cellSize(c.obs), invalid: t?.invalid ?? 0, error: t?.error ?? 0, imputed: imputedByCell[i], p: cellRate(c.obs) };
  });
  return { imputation, cells };
}

/** The selective-robustness analysis of a context-enrichment store: computed, with its files (not written). */
export function selectiveAnalysis(source: StoreTable, opts: SelectiveOptions): SelectiveAnalysis {
  const logger = opts.logger ?? silentLogger;
  const { facts, table, layout, bounds } = selectiveInput(source, opts, logger);
  const settings = { seed: opts.seed ?? DEFAULTS.seed, reps: opts.reps ?? DEFAULTS.reps };
  const thresholds = opts.thresholds ?? DEFAULT_THRESHOLDS;
  const { boot, rows } = selectiveRows(table, layout, settings, thresholds, logger);
  const { imputation, cells } = selectiveCells(source, bounds, table, layout, logger);
  const outDir = resolve(opts.out);
  const reportsDir = join(outDir, 'reports');
  const provenance = { path: opts.store, sha256: opts.storeSha256 ?? sha256File(opts.store),
    kind: facts.simulated.length ? 'direct run (synthetic: simulated provider)' : 'direct run' };
  const command = opts.command ?? regenerateCommand('analyze', [opts.store], { run: source.run.id, seed: settings.seed, reps: settings.reps });
  const partial = { kind: 'selective' as const, source, facts, table, layout, boot, rows, cells, imputation, thresholds, settings, reportsDir, outDir,
    provenance, command, ...(opts.names ? { names: opts.names } : {}) };
  const analysis: SelectiveAnalysis = { ...partial, figures: [selectivePlane(namedSelective(partial, opts.names))], files: [] };
  const files: OutputFile[] = [
    { path: join(reportsDir, 'selective.csv'), content: selectiveCsv(rows, opts.names) },
    { path: join(reportsDir, 'selective-paraphrase.csv'), content: paraphraseCsv(rows, opts.names) },
    { path: join(reportsDir, 'selective-equivalence.csv'), content: equivalenceCsv(rows, opts.names) },
    { path: join(reportsDir, 'selective-cells.csv'), content: cellsCsv(analysis) },
    { path: join(reportsDir, 'selective-imputation.csv'), content: imputationCsv(analysis) },
    { path: join(reportsDir, 'selective.json'), content: selectiveJson(analysis) },
    { path: join(reportsDir, 'selective.md'), content: selectiveMarkdown(analysis) },
    { path: join(reportsDir, 'selective.tex'), content: selectiveLatex(analysis, opts.latexWidth === undefined ? {} : { width: opts.latexWidth }) },
  ];
  return { ...analysis, files };
}

/** The run's plane, with the published metrics in a panel beside it when the design names them. */
function selectivePlane(a: Pick<SelectiveAnalysis, 'source' | 'facts' | 'rows' | 'thresholds' | 'settings'>): Figure {
  const label = `This run: ${a.source.run.designName}${a.facts.simulated.length ? ' (synthetic)' : ''}`;
  const mine: PlaneRow[] = a.rows.map((r) => ({ source: label, model: r.model, condition: r.condition, ss: r.ss, ssLo: r.ssLo, ssHi: r.ssHi, wr: r.wr,
    wrLo: r.wrLo, wrHi: r.wrHi, verdict: r.verdict }));
  const ref = a.facts.publishedReference as PublishedId | undefined;
  const published = ref && ref in PUBLISHED ? publishedPlaneRows(ref) : [];
  return selectivePlaneFigure([...mine, ...published], {
    subtitle: (`${a.facts.spec.worlds[0]} − ${a.facts.spec.worlds[1]}; 95 % ` +
      `intervals, ${a.settings.reps} replicates${published.length ? '; right: the published table' : ''}`),
    conditions: a.facts.conditions, thresholds: a.thresholds,
  });
}

/** The published table alone on the plane (the same figure function as a run's). */
export function publishedPlane(id: PublishedId = 'greiche-2026'): Figure {
  return selectivePlaneFigure(publishedPlaneRows(id), {
    id: 'selective-plane-published', subtitle: 'Published results table (Greiche et al. 2026) (points / 100); 95 % bootstrap intervals as published',
    conditions: ['minimal', 'neutral-padding', 'generic-social', 'descriptive-grounding', 'normative-grounding'],
  });
}

