import { basename, extname, join, resolve, dirname } from 'node:path';
import { sha256File } from '../core/hash.js';
import { TrialStore } from '../live/store/store.js';
import { pickRun, readStore, storeTable, type StoreTable } from '../sources/store.js';
import { readRates } from '../sources/rates-csv.js';
import { writeFilesAtomic, type OutputFile } from '../core/atomic.js';
import { levels } from '../core/cells.js';
import { UserError } from '../core/errors.js';
import { analyzeMsg } from '../core/messages/analyze.js';
import { msg } from '../core/messages/common.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { lambdaEstimand } from '../analyses/two-framing/lambda.js';
import { analyzeTwoFraming, type TwoFramingAnalysis, type TwoFramingSettings } from '../analyses/two-framing/analysis.js';
import { compareCells, type Comparison } from '../analyses/compare/compare.js';
import { designFacts, withTableGames, type DesignFacts } from '../analyses/compare/design-facts.js';
import { verifyTwoFraming } from '../analyses/two-framing/checks.js';
import { check, makeReport, type VerificationReport } from '../core/checks.js';
import { csvTables, twoFramingTableFiles, verificationFiles } from '../analyses/two-framing/files.js';
import { compareCsv, compareHeadlineCsv, invalidCsv, lambdaCsv, lambdaRows } from '../analyses/compare/tables.js';
import { table3Rows, type Table3Row } from '../analyses/two-framing/tables.js';
import type { InputProvenance } from '../analyses/two-framing/metrics.js';
import { DEFAULTS } from './reproduce.js';
import { isSelectiveSource } from '../analyses/selective/facts.js';
import type { VerdictThresholds } from '../analyses/selective/estimand.js';
import { analyzeSelective } from './analyze-selective.js';
import type { SelectiveAnalysis } from '../analyses/selective/index.js';

export interface AnalyzeOptions extends Partial<TwoFramingSettings> {
  readonly store: string;
  /** Output directory; default: beside the store, named after it. */
  readonly out?: string;
  readonly runId?: number;
  /** Reconstructed rates to compare with, side by side. */
  readonly compare?: string;
  readonly modelMap?: Readonly<Record<string, string>>;
  readonly logger?: Logger;
  readonly dryRun?: boolean;
  /** Verdict thresholds of a context-enrichment run (selective robustness). */
  readonly thresholds?: VerdictThresholds;
}

export interface AnalyzeResult {
  readonly source: StoreTable;
  readonly facts: DesignFacts;
  readonly analysis: TwoFramingAnalysis;
  readonly verification: VerificationReport;
  readonly table3: Table3Row[];
  readonly comparison?: Comparison;
  readonly files: OutputFile[];
  readonly outDir: string;
  readonly reportsDir: string;
  /** The store the analysis read: path as given, SHA-256, kind. */
  readonly provenance: InputProvenance;
}

/** Default output directory of `analyze`: runs/x.sqlite → runs/x/. */
export function defaultAnalyzeOut(store: string): string {
  return join(dirname(resolve(store)), basename(store, extname(store)));
}

/**
 * `samegame analyze STORE`: the valid trials of a run → the same cell table the reconstructed
 * path uses → the same outputs as `reproduce`, plus invalid counts per cell and the λ̂
 * diagnostic. Direct runs are not attenuated unless asked (attenuation defaults to 1).
 */
export function analyze(opts: AnalyzeOptions): AnalyzeResult | SelectiveAnalysis {
  const logger = opts.logger ?? silentLogger;
  const store = readStore(opts.store, () => TrialStore.openExisting(opts.store));
  let source: StoreTable;
  let facts: DesignFacts;
  try {
    ({ facts, source } = readStore(opts.store, () => {
      const run = pickRun(store, opts.store, opts.runId);
      const f = designFacts(run.designJson);
      return { facts: f, source: storeTable(store, run, f) };
    }));
  } finally {
    store.close();
  }
  // A context-enrichment run (cells carry condition, world, format) gets the selective-robustness analysis.
  if (isSelectiveSource(source)) return analyzeSelective(source, { ...opts, out: opts.out ?? defaultAnalyzeOut(opts.store) });
  const { table, tallies } = source;
  if (table.cells.length === 0) throw new UserError(analyzeMsg.noValidTrials(opts.store));
  facts = withTableGames(facts, levels(table, 'game'));
  if (facts.simulated.length) logger.warn(analyzeMsg.synthetic());

  const framings = levels(table, 'framing');
  const settings: TwoFramingSettings = {
    seed: opts.seed ?? DEFAULTS.seed,
    reps: opts.reps ?? DEFAULTS.reps,
    attenuation: opts.attenuation ?? 1,
    base: opts.base ?? (framings.includes(DEFAULTS.base) ? DEFAULTS.base : framings[0]),
    alt: opts.alt ?? (framings.includes(DEFAULTS.alt) ? DEFAULTS.alt : framings[1] ?? framings[0]),
  };
  if (settings.base === settings.alt) throw new UserError(msg.sameFraming(settings.base));
  if (opts.base === undefined || opts.alt === undefined) logger.info(analyzeMsg.framingPair(settings.base, settings.alt));
  // Every model–game needs valid trials in both planned framings.
  for (const mg of new Set(table.cells.map((c) => JSON.stringify([c.key.model, c.key.game])))) {
    const [model, game] = JSON.parse(mg) as [string, string];
    for (const f of [settings.base, settings.alt]) {
      if (!table.cells.some((c) => c.key.model === model && c.key.game === game && c.key.framing === f)) {
        throw new UserError(analyzeMsg.missingPlannedCell(opts.store, model, game, f));
      }
    }
  }
  for (const g of levels(table, 'game')) {
    const du = facts.gaps.get(g);
    if (du === undefined || !(du !== 0 && Number.isFinite(du))) logger.warn(analyzeMsg.noLambdaGap(g));
  }

  const analysis = analyzeTwoFraming(table, settings, logger, (layout) => [lambdaEstimand(table, layout, facts.gaps)]);
  const comparison = opts.compare
    ? compareWith(opts.compare, source, settings, opts.modelMap ?? {})
    : undefined;

  const outDir = resolve(opts.out ?? defaultAnalyzeOut(opts.store));
  const reportsDir = join(outDir, 'reports');
  const provenance = {
    path: opts.store,
    sha256: sha256File(opts.store),
    kind: facts.simulated.length ? 'direct run (synthetic: simulated provider)' : 'direct run',
  };
  const extra = {
    run: { id: source.run.id, design: source.run.designName, design_hash: source.run.designHash, tool_version: source.run.toolVersion },
    synthetic_models: facts.simulated,
    trials: tallies.map((t) => ({ model: t.model, game: t.game, framing: t.framing, ...t.factors, valid: t.valid, invalid: t.invalid, error: t.error, scoring: t.scoring })),
    lambda: lambdaRows(analysis, facts.gaps),
  };
  const comparisonFiles: OutputFile[] = comparison ? [
    { path: join(reportsDir, 'compare.csv'), content: compareCsv(comparison) },
    { path: join(reportsDir, 'compare-headline.csv'), content: compareHeadlineCsv(analysis, comparison) },
  ] : [];
  const tableFiles: OutputFile[] = [
    ...twoFramingTableFiles(reportsDir, analysis, provenance, extra),
    { path: join(reportsDir, 'invalid.csv'), content: invalidCsv(tallies) },
    { path: join(reportsDir, 'lambda.csv'), content: lambdaCsv(analysis, facts.gaps) },
    ...comparisonFiles,
  ];
  const verification = verifyDirect(analysis, source, facts, csvTables(tableFiles), csvTables(comparisonFiles));
  const files = [...tableFiles, ...verificationFiles(reportsDir, verification)];
  if (!opts.dryRun) writeFilesAtomic(files);
  return { source, facts, analysis, verification, table3: table3Rows(analysis), comparison, files, outDir, reportsDir, provenance };
}

function compareWith(file: string, source: StoreTable, settings: TwoFramingSettings, modelMap: Readonly<Record<string, string>>): Comparison {
  const recon = readRates(resolve(file), { base: settings.base, alt: settings.alt, displayPath: file });
  const c = compareCells(source.table, recon.table, settings, modelMap);
  if (c.rows.length === 0) throw new UserError(analyzeMsg.compareNoOverlap(file));
  return c;
}

/** Appendix C adapted to a design: expected cells from the design, decisions = valid trials. */
function verifyDirect(a: TwoFramingAnalysis, source: StoreTable, facts: DesignFacts, tables: string[], requested: string[]): VerificationReport {
  const base = verifyTwoFraming({
    analysis: a,
    // Counted by SQL over the stored trials, apart from the cell table the estimands used.
    expectedDecisions: { value: source.tallies.reduce((s, t) => s + t.valid, 0), source: 'valid trials in the store' },
    tables,
    requestedComparisons: requested,
  });
  const present = new Set(a.table.cells.map((c) => JSON.stringify([c.key.model, c.key.game, c.key.framing])));
  const missing: string[] = [];
  for (const m of facts.models) for (const g of facts.games) for (const f of facts.framings) {
    if (!present.has(JSON.stringify([m, g, f]))) missing.push(`${m} / ${g} / ${f}`);
  }
  const expected = facts.models.length * facts.games.length * facts.framings.length;
  const designCells = check('design_cells_present', 'every model × game × framing cell of the design has valid trials',
    `${present.size} cells with valid trials, design expects ${expected}`, missing);
  return makeReport([...base.checks, designCells], [...base.degenerate]);
}
