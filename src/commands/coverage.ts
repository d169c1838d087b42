import { join, resolve } from 'node:path';
import { oneShotCells, openRun } from '../sources/open-run.js';
import { readRepeatedStore } from '../sources/repeated-store.js';
import type { MatchSamples } from '../analyses/adaptive/index.js';
import { repeated } from '../analyses/repeated/index.js';
import { attenuationOf, inputNotes, isClustered, readInput, sourceName, sourceOf } from '../sources/input.js';
import type { CellTable } from '../core/cells.js';
import { cellSize, levels } from '../core/cells.js';
import type { OutputFile } from '../core/atomic.js';
import { UserError } from '../core/errors.js';
import { msg } from '../core/messages/common.js';
import { progressOf, silentLogger, type Logger } from '../core/logger.js';
import { missingPlannedCell, TWO_FRAMING_DEFAULTS } from '../analyses/two-framing/index.js';
import { adaptiveCoverage, adaptiveMatchCoverage, type AdaptiveCoverageRow,
  COVERAGE_DEFAULTS, coverageCsv, coverageFigure, coverageStudy, coverageText, type AdaptiveRule,
  type CoverageMethod,
  type CoverageResult, type CoverageTruth } from '../analyses/coverage/index.js';
import { figureFiles } from '../render/figure-files.js';
import { checkOut, logFiles } from './command-options.js';
import { finish } from './pipeline/write.js';
import { commandsMsg } from './messages.js';
import { analyzeMsg } from '../core/messages/analyze.js';

export { COVERAGE_DEFAULTS, coverageText, type CoverageMethod, type CoverageTruth } from '../analyses/coverage/index.js';
export { TWO_FRAMING_DEFAULTS } from '../analyses/two-framing/index.js';

export interface CoverageOptions {
  /** Rates file (default: the shipped data when no store is given). */
  readonly data?: string;
  /** A trial store written by `samegame run`. */
  readonly store?: string;
  /** A per-trial file (CSV or JSONL) giving the cells and n; its cluster column (clustered files are refused). */
  readonly trials?: string | readonly string[];
  readonly cluster?: string;
  /** The log format of the --trials files, and the rounds kept (src/sources/logs/). */
  readonly format?: string;
  readonly rounds?: string;
  readonly shortMatches?: 'drop' | 'keep';
  /** A WebPlotDigitizer project with its layout (and pixel error) giving the cells and n. */
  readonly digitized?: string;
  readonly layout?: string;
  readonly pixelError?: number;
  readonly runId?: number;
  readonly out?: string;
  readonly sims?: number;
  readonly reps?: number;
  readonly seed?: number;
  readonly interval?: CoverageMethod | 'both';
  readonly truth?: CoverageTruth;
  /** Default: the input kind's (SOURCES), as reproduce and analyze. */
  readonly attenuation?: number;
  readonly base?: string;
  readonly alt?: string;
  /** Figures (figures/coverage.*, default); false: reports/coverage.csv alone. */
  readonly figures?: boolean;
  readonly logger?: Logger;
  readonly dryRun?: boolean;
}

export interface CoverageCommandResult extends CoverageResult {
  readonly input: string;
  /** An adaptive run's rows (also in coverage.csv): each unit's sequence and fixed-n interval at the stop. */
  readonly adaptive: readonly AdaptiveCoverageRow[];
  readonly files: readonly OutputFile[];
}

/** The cell table of a store's run (model × game × framing, extra factors folded into the game as analyze folds them). */
function storeCells(path: string, runId?: number): { table: CellTable; rule?: AdaptiveRule; samples?: readonly MatchSamples[] } {
  // Damaged rows (bad JSON, rates outside [0, 1], control characters) end in the store's one-line message.
  const r = openRun(path, { runId });
  // repeated play: the decisions' framing table, clustered by match (as analyze builds it), simulated match by match
  if (r.kind === 'repeated') {
    const read = readRepeatedStore(path, { run: r.run.id });
    return { table: repeated.framingTable(read.decisions), ...(read.adaptive ? { rule: read.adaptive.rule, samples: read.adaptive.samples } : {}) };
  }
  if (r.kind === 'enrichment') throw new UserError(commandsMsg.notTwoFraming(path));
  const source = oneShotCells(r);
  if (source.table.cells.length === 0) throw new UserError(analyzeMsg.noValidTrials(path));
  return { table: source.folded, ...(source.adaptive ? { rule: source.adaptive.rule } : {}) };
}

/**
 * The methods whose coverage is measured: `both` (the default) is every interval the analysis
 * offers for the input — percentile and BCa for independent trials, cluster-robust (the default)
 * and the cluster bootstrap for clustered cells; percentile on clustered cells is the cluster
 * bootstrap's, cluster-robust on independent trials the percentile one.
 */
function coverageMethods(interval: CoverageMethod | 'both' | undefined, clustered: boolean): CoverageMethod[] {
  if (!interval || interval === 'both') return clustered ? ['cluster-robust', 'cluster-bootstrap'] : ['percentile', 'bca'];
  if (clustered && interval === 'percentile') return ['cluster-bootstrap'];
  if (!clustered && (interval === 'cluster-robust' || interval === 'cluster-bootstrap')) return ['percentile'];
  return [interval];
}

/** Every model–game has both planned framings (the readers of files check this themselves). */
function checkPlanned(table: CellTable, path: string, base: string, alt: string): void {
  const m = missingPlannedCell(table, base, alt);
  if (m) throw new UserError(commandsMsg.missingPlanned(path, m.model, m.game, m.framing));
}

/**
 * `samegame coverage`: the user's design (cells and n from a rates file or a store), simulated
 * `sims` times from known rates, each with the full bootstrap → reports/coverage.csv and
 * figures/coverage.*, then the table (logger.print) and the files. Output-path and input errors
 * are thrown before any simulation.
 */
export async function coverage(opts: CoverageOptions): Promise<CoverageCommandResult> {
  const logger = opts.logger ?? silentLogger;
  // Where the outputs go is checked before the input is read and long before the simulations.
  checkOut(opts);
  if ([opts.data, opts.store, opts.trials, opts.digitized].filter((x) => x !== undefined).length > 1) throw new UserError(commandsMsg.dataAndStore());
  let table: CellTable;
  let base = opts.base ?? TWO_FRAMING_DEFAULTS.base;
  let alt = opts.alt ?? TWO_FRAMING_DEFAULTS.alt;
  const source = sourceOf(opts);
  const input = sourceName(source);
  let rule: AdaptiveRule | undefined;
  let samples: readonly MatchSamples[] | undefined;
  if (source.kind === 'store') {
    ({ table, rule, samples } = storeCells(source.file, source.runId));
    const framings = levels(table, 'framing');
    base = opts.base ?? (framings.includes(base) ? base : framings[0]);
    alt = opts.alt ?? (framings.includes(alt) ? alt : framings[1] ?? framings[0]);
    checkPlanned(table, source.file, base, alt);
  } else {
    const read = readInput({ data: opts.data, trials: opts.trials, cluster: opts.cluster, format: opts.format, rounds: opts.rounds,
      shortMatches: opts.shortMatches, digitized: opts.digitized, layout: opts.layout, pixelError: opts.pixelError }, base, alt);
    for (const n of inputNotes(read)) opts.logger?.warn(n);
    table = read.table;
  }
  if (base === alt) throw new UserError(msg.sameFraming(base));
  const settings = {
    seed: opts.seed ?? TWO_FRAMING_DEFAULTS.seed,
    reps: opts.reps ?? COVERAGE_DEFAULTS.reps,
    attenuation: attenuationOf(source, opts.attenuation),
    base, alt,
    sims: opts.sims ?? COVERAGE_DEFAULTS.sims,
    methods: coverageMethods(opts.interval, isClustered(table)),
    truth: opts.truth ?? COVERAGE_DEFAULTS.truth,
    level: COVERAGE_DEFAULTS.level,
  };
  const ns = [...new Set(table.cells.map((c) => cellSize(c.obs)))];
  logger.info(commandsMsg.simulating(settings.sims, `${table.cells.length} cells, n = ${ns.join(', ')}`));
  const result = coverageStudy(table, settings, progressOf(logger, 'coverage'));
  if (isClustered(table)) logger.info(commandsMsg.clustered(table.cells.reduce((s, c) => s + (c.obs.kind === 'clustered' ? c.obs.sizes.length : 0), 0),
    result.icc));
  // An adaptive run: its stop rule simulated at the run's rates, the sequence and the fixed-n interval at each stop.
  const stopped = !rule ? [] : samples ? adaptiveMatchCoverage(rule, samples, settings.sims, settings.seed) : adaptiveCoverage(rule, table, settings.sims,
    settings.seed);
  if (rule) logger.info(commandsMsg.adaptiveCoverage(rule.method, stopped.length / 2, settings.sims));
  const rows = [...result.rows, ...stopped];
  const outDir = resolve(opts.out ?? '.');
  const files: OutputFile[] = [
    { path: join(outDir, 'reports', 'coverage.csv'), content: coverageCsv(rows) },
    ...(opts.figures === false ? [] : await figureFiles([coverageFigure(result)], outDir, logger)),
  ];
  return finish({ result: { ...result, input, files, adaptive: stopped }, files, print: (l) => {
    l.print?.(`${coverageText(rows, commandsMsg.title(result.settings.sims, result.settings.truth, input), result.settings.sims)}\n`);
    logFiles(files, l);
  } }, opts);
}
