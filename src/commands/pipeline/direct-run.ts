import { join, resolve } from 'node:path';
import type { StoreTable } from '../../sources/store.js';
import { readRates } from '../../sources/rates-csv.js';
import { sourceOf } from '../../sources/input.js';
import type { OutputFile } from '../../core/atomic.js';
import { levels, type CellTable } from '../../core/cells.js';
import { UserError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { lambdaEstimand } from '../../analyses/two-framing/lambda.js';
import { analyzeTwoFraming, type TwoFramingAnalysis, type TwoFramingSettings } from '../../analyses/two-framing/analysis.js';
import { missingPlannedCell } from '../../analyses/two-framing/estimand.js';
import { compareCells, type Comparison } from '../../analyses/compare/compare.js';
import { withTableGames, type DesignFacts } from '../../analyses/compare/design-facts.js';
import { verifyTwoFraming } from '../../analyses/two-framing/checks.js';
import { check, makeReport, type VerificationReport } from '../../core/checks.js';
import { csvTables, twoFramingTableFiles, verificationFiles } from '../../analyses/two-framing/files.js';
import { compareCsv, compareHeadlineCsv, invalidCsv, lambdaCsv, lambdaRows } from '../../analyses/compare/tables.js';
import { table3Rows, type Table3Row } from '../../analyses/two-framing/tables.js';
import type { InputProvenance } from '../../analyses/two-framing/metrics.js';
import { analyzeCommand, defaultAnalyzeOut, directRunSettings, type StoreAnalyzeOptions } from './store-settings.js';
import type { Reproduction } from '../../analyses/reproduction/index.js';
import { compareExpected, readExpected, reproductionExtra, reproductionOutputs, verdictFlags } from '../expect.js';
import { poolingFiles } from './table-pooling.js';
import { labelSynthetic, originExtra, syntheticWarning, type Origin } from '../../core/provenance.js';
import { withNamedLatex } from '../../analyses/two-framing/latex.js';
import { inputNames, type InputNames } from '../input-names.js';
import { adaptive } from '../../analyses/adaptive/index.js';
import { comprehensionResult, withComprehensionFiles, type ComprehensionResult } from './comprehension.js';
import type { LatexOptions } from '../../render/latex.js';
import { latexOf } from '../command-options.js';
import { analyzeMsg } from '../../core/messages/analyze.js';
import { pipelineMsg } from './messages.js';

export interface AnalyzeResult {
  readonly kind: 'two-framing';
  readonly source: StoreTable;
  readonly facts: DesignFacts;
  readonly analysis: TwoFramingAnalysis;
  readonly verification: VerificationReport;
  readonly table3: Table3Row[];
  readonly comparison?: Comparison;
  /** Every published number beside the computed one (with --expect). */
  readonly reproduction?: Reproduction;
  /** The comparison file as given, its SHA-256, and the model map applied. */
  readonly compareInput?: { readonly path: string; readonly sha256: string; readonly modelMap: Readonly<Record<string, string>> };
  readonly files: OutputFile[];
  readonly outDir: string;
  readonly reportsDir: string;
  /** The store the analysis read: path as given, SHA-256, kind. */
  readonly provenance: InputProvenance;
  /** The command line that regenerates these outputs (also in metrics.json and the report). */
  readonly command: string;
  /** Table 3 over games (random: reports/table3-random.csv and its report section as well). */
  readonly pooling?: 'fixed' | 'random';
  /** Where the trials come from: synthetic or not, the run and its design hash, the framing texts, the design's names. */
  readonly origin: Origin;
  /** Display names (the design's `names:` block, then `--names FILE`), when any. */
  readonly names?: InputNames;
  /** A run with comprehension probes: its table, verdicts and the Table 3 marks (comprehension.ts). */
  readonly comprehension?: ComprehensionResult;
}

/** A folded game ("G [cond=x]") has the payoff gap of its game G (the folded table keeps the cells' order). */
function withFoldedGames(facts: DesignFacts, source: StoreTable): DesignFacts {
  if (source.folded === source.table) return facts;
  const gaps = new Map(facts.gaps);
  source.folded.cells.forEach((c, i) => {
    const gap = facts.gaps.get(source.table.cells[i].key.game);
    if (gap !== undefined) gaps.set(c.key.game, gap);
  });
  return { ...facts, gaps };
}

/** Every model–game needs valid trials in both planned framings. */
function checkPlannedCells(table: CellTable, s: TwoFramingSettings, store: string): void {
  const m = missingPlannedCell(table, s.base, s.alt);
  if (m) throw new UserError(analyzeMsg.missingPlannedCell(store, m.model, m.game, m.framing, levels(table, 'framing')));
}

/**
 * The two-framing analysis of a direct run: the valid trials → the same cell table the
 * reconstructed path uses → the same outputs as `reproduce`, plus invalid counts per cell, the λ̂
 * diagnostic and (with a comparison file) the cell-by-cell comparison, its files as values (the
 * pipeline writes them, write.ts). Direct runs are not attenuated unless asked (attenuation defaults to 1).
 */
export function analyzeDirectRun(source: StoreTable, designFacts: DesignFacts, origin: Origin, opts: StoreAnalyzeOptions, logger: Logger): AnalyzeResult {
  const table = source.folded;
  const published = readExpected(opts, sourceOf(opts), logger); // read before anything is computed
  if (table.cells.length === 0) throw new UserError(analyzeMsg.noValidTrials(opts.store));
  const facts = withFoldedGames(withTableGames(designFacts, levels(source.table, 'game')), source);
  if (origin.synthetic) logger.warn(syntheticWarning(origin));
  const names = inputNames(table, origin, opts.namesFile, logger);
  const settings = directRunSettings(opts, table, logger);
  checkPlannedCells(table, settings, opts.store);
  for (const g of levels(table, 'game')) {
    const du = facts.gaps.get(g);
    if (du === undefined || !(du !== 0 && Number.isFinite(du))) logger.warn(pipelineMsg.noLambdaGap(g));
  }
  const analysis = analyzeTwoFraming(table, settings, logger, (layout) => [lambdaEstimand(table, layout, facts.gaps)]);
  const modelMap = opts.modelMap ?? {};
  const compared = opts.compare ? compareWith(opts.compare, source, settings, modelMap) : undefined;
  const outDir = resolve(opts.out ?? defaultAnalyzeOut(opts.store));
  const partial = {
    kind: 'two-framing' as const, source, facts, analysis, comparison: compared?.comparison,
    compareInput: compared && opts.compare ? { path: opts.compare, sha256: compared.sha256, modelMap } : undefined,
    outDir, reportsDir: join(outDir, 'reports'),
    provenance: {
      path: opts.store, sha256: origin.source.sha256,
      kind: origin.synthetic ? 'direct run (synthetic)' : 'direct run',
    },
    origin, ...(names ? { names } : {}),
    command: analyzeCommand(opts.store, source.run.id, settings, {
      interval: opts.interval === 'percentile' && !opts.clusterInterval ? 'percentile' : undefined, compare: opts.compare,
        modelMap: opts.compare ? modelMap : undefined, expect: published?.path, ...verdictFlags(opts, published), pooling: opts.pooling, names: opts.namesFile,
      comprehensionThreshold: opts.comprehensionThreshold, latexWidth: opts.latexWidth,
    }),
  };
  const understood = comprehensionResult(source.probes, { models: facts.models, games: facts.games, framings: facts.framings }, analysis,
    opts.comprehensionThreshold, logger);
  const direct = directRunFiles(partial, compareExpected(analysis, published, opts), logger, latexOf(opts));
  const { verification, reproduction } = direct;
  const all = [...direct.files, ...poolingFiles(opts.pooling, partial.reportsDir, analysis), ...adaptiveFiles(source, partial.reportsDir, logger)];
  const named = withNamedLatex(all, partial.reportsDir, analysis, names?.map, latexOf(opts));
  const files = labelSynthetic(withComprehensionFiles(named, partial.reportsDir, analysis, understood), origin);
  return { ...partial, verification, reproduction, table3: table3Rows(analysis), files, pooling: opts.pooling,
    ...(understood ? { comprehension: understood } : {}) };
}

/** An adaptive run: reports/adaptive.csv (anytime-valid intervals, stopping looks, trials saved) and its note. */
function adaptiveFiles(source: StoreTable, reportsDir: string, logger: Logger): OutputFile[] {
  if (!source.adaptive) return [];
  const { rule, statuses } = source.adaptive;
  const rows = adaptive.rows(rule, statuses);
  const t = adaptive.totals(rule, rows);
  logger.info(pipelineMsg.adaptiveAnalysis(rule.method, t.early, rows.length, t.used, t.fixed));
  return [{ path: join(reportsDir, 'adaptive.csv'), content: adaptive.csv(rule, rows) }];
}

type Partial2 = Omit<AnalyzeResult, 'verification' | 'table3' | 'files' | 'reproduction'>;

/** The table files (metrics.json records the regenerate command and the comparison file) and the verification. */
function directRunFiles(r: Partial2, compared: Reproduction | undefined, logger: Logger, latex: LatexOptions): { files: OutputFile[];
  verification: VerificationReport; reproduction?: Reproduction } {
  const { analysis, source, facts, comparison, reportsDir } = r;
  const extra = {
    command: r.command,
    run: { id: source.run.id, design: source.run.designName, design_hash: source.run.designHash, tool_version: source.run.toolVersion },
    ...(r.compareInput ? { compare: { path: r.compareInput.path, sha256: r.compareInput.sha256, model_map: r.compareInput.modelMap } } : {}),
    ...originExtra(r.origin),
    trials: source.tallies.map((t) => ({ model: t.model, game: t.game, framing: t.framing, ...t.factors, valid: t.valid, invalid: t.invalid, error: t.error,
      scoring: t.scoring })),
    lambda: lambdaRows(analysis, facts.gaps),
    ...(source.adaptive ? { adaptive: adaptive.metrics(source.adaptive.rule, source.adaptive.statuses) } : {}),
    ...reproductionExtra(compared),
  };
  const comparisonFiles: OutputFile[] = comparison ? [
    { path: join(reportsDir, 'compare.csv'), content: compareCsv(comparison) },
    { path: join(reportsDir, 'compare-headline.csv'), content: compareHeadlineCsv(analysis, comparison) },
  ] : [];
  const tableFiles: OutputFile[] = [
    ...twoFramingTableFiles(reportsDir, analysis, r.provenance, extra, r.names?.map),
    { path: join(reportsDir, 'invalid.csv'), content: invalidCsv(source.tallies) },
    { path: join(reportsDir, 'lambda.csv'), content: lambdaCsv(analysis, facts.gaps) },
    ...comparisonFiles,
  ];
  const checked = verifyDirect(analysis, source, facts, csvTables(tableFiles), csvTables(comparisonFiles));
  const { reproduction, files: reproductionFiles, verification } = reproductionOutputs(reportsDir, compared, checked, logger, latex,
    r.names?.map);
  return { files: [...tableFiles, ...reproductionFiles, ...verificationFiles(reportsDir, verification)], verification, reproduction };
}

function compareWith(file: string, source: StoreTable, settings: TwoFramingSettings,
  modelMap: Readonly<Record<string, string>>): { comparison: Comparison; sha256: string } {
  const recon = readRates(resolve(file), { base: settings.base, alt: settings.alt, displayPath: file });
  const c = compareCells(source.folded, recon.table, settings, modelMap);
  if (c.rows.length === 0) throw new UserError(pipelineMsg.compareNoOverlap(file));
  return { comparison: c, sha256: recon.sha256 };
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
  // The design's cells are its model × game × framing, whatever levels of extra factors the trials carry.
  const present = new Set(source.table.cells.map((c) => JSON.stringify([c.key.model, c.key.game, c.key.framing])));
  const missing: string[] = [];
  for (const m of facts.models) for (const g of facts.games) for (const f of facts.framings) {
    if (!present.has(JSON.stringify([m, g, f]))) missing.push(`${m} / ${g} / ${f}`);
  }
  const expected = facts.models.length * facts.games.length * facts.framings.length;
  const designCells = check('design_cells_present', 'every model × game × framing cell of the design has valid trials',
    `${present.size} cells with valid trials, design expects ${expected}`, missing);
  return makeReport([...base.checks, designCells], [...base.degenerate]);
}
