import { join, resolve } from 'node:path';
import type { DisplayNames } from '../core/display-names.js';
import { readNamesFile } from '../sources/names-file.js';
import type { FigureStyle } from '../render/paper-style.js';
import { readInput, type AnalysisInput, type InputChoice } from '../sources/input.js';
import { levels } from '../core/cells.js';
import { writeFilesAtomic, type OutputFile } from '../core/atomic.js';
import { UserError } from '../core/errors.js';
import { msg } from '../core/messages/common.js';
import type { Logger } from '../core/logger.js';
import { silentLogger } from '../core/logger.js';
import { withNamedLatex, twoFraming, type Table3Row, type TwoFramingAnalysis, type TwoFramingSettings } from '../analyses/two-framing/index.js';
import type { VerificationReport } from '../core/checks.js';
import type { Reproduction } from '../analyses/reproduction/index.js';
import { compareExpected, expectFlag, readExpected, reproductionExtra, reproductionOutputs, verdictFlags, type ExpectOptions } from './expect.js';
import { regenerateCommand } from '../core/command-line.js';
import { digitization } from '../analyses/digitization/index.js';

/** The paper's settings: the defaults of every rates command. */
export const DEFAULTS = twoFraming.defaults;

export interface ReproduceOptions extends Partial<TwoFramingSettings>, InputChoice, Pick<ExpectOptions, 'verdictAlpha' | 'publishedReps'> {
  /** Output directory; reports/ (and figures/) are written under it. */
  out?: string;
  /** `--figure-style paper` (render/paper-style.ts); the default style otherwise. */
  figureStyle?: FigureStyle;
  /** `--names FILE`: display names for the report, figures, terminal and LaTeX (the CSVs keep the ids). */
  namesFile?: string;
  logger?: Logger;
  /** Compute only; write nothing (the library use). */
  dryRun?: boolean;
  /**
   * Published values to compare with (reports/reproduction.csv and the check
   * published_values_reproduced); by default the shipped paper tables for the shipped rates and
   * none for any other --data; false for none.
   */
  expect?: string | false;
  /** Receives the two-framing analysis as soon as it is computed (before the checks): a caller may start drawing its figures. */
  onAnalysis?: (analysis: TwoFramingAnalysis) => void;
}

export interface ReproduceResult {
  readonly input: AnalysisInput;
  readonly analysis: TwoFramingAnalysis;
  readonly verification: VerificationReport;
  readonly table3: Table3Row[];
  /** Every published number beside the computed one, when there were published values to compare with. */
  readonly reproduction?: Reproduction;
  /** Files written (or that would be written), absolute paths. */
  readonly files: readonly OutputFile[];
  /** Display names (`--names FILE`: the file as given, and its names), when given. */
  readonly names?: { readonly file: string; readonly map: DisplayNames };
}

/**
 * The decisions a rates file represents (Same Game, Different Story Appendix C: 3 × 4 × 2 cells × 300 = 7,200): with
 * one n for every row, models × games × framings × n, so a missing or extra cell shows; otherwise
 * Σ n over the rows.
 */
function expectedDecisions(input: AnalysisInput): { value: number; source: string } {
  if (!input.rates) return { value: input.trials!.trials, source: input.trials!.logs ? 'valid decisions of the log in the rounds kept' : 'rows of the per-trial file' };
  const ns = input.rates.rows.map((r) => (r.cell.obs as { n: number }).n);
  if (ns.every((n) => n === ns[0])) {
    const dims = ['model', 'game', 'framing'].map((f) => levels(input.table, f).length);
    return { value: dims[0] * dims[1] * dims[2] * ns[0], source: `models × games × framings × n (${dims.join(' × ')} × ${ns[0]})` };
  }
  return { value: ns.reduce((a, b) => a + b, 0), source: 'Σ n over the rows of the input' };
}

/**
 * The command line that regenerates the outputs of a rates command (reproduce, report) with these
 * settings: the input (rates or per-trial, with its cluster and factor columns), the bootstrap,
 * the interval method when not the default, and the published values compared with.
 */
export function ratesCommand(command: string, input: AnalysisInput, s: TwoFramingSettings,
  extra: { readonly interval?: string; readonly expect?: string; readonly verdictAlpha?: number; readonly publishedReps?: number; readonly names?: string } = {}): string {
  const t = input.trials;
  const d = input.digitized;
  const source = t?.logs ? { trials: t.logs.files, format: t.logs.format, rounds: t.logs.rounds, factor: t.extraFactors }
    : t ? { trials: t.path, cluster: t.clusterColumn, factor: t.extraFactors }
    : d ? { digitized: d.path, layout: d.layout.path, pixelError: d.pixelError } : { data: input.path };
  return regenerateCommand(command, [], {
    ...source, seed: s.seed, reps: s.reps, attenuation: s.attenuation, base: s.base, alt: s.alt,
    interval: extra.interval === 'bca' ? 'bca' : undefined, expect: extra.expect, verdictAlpha: extra.verdictAlpha, publishedReps: extra.publishedReps, names: extra.names,
  });
}

/**
 * `samegame reproduce`: rates CSV → reconstruction → estimands with bootstrap intervals →
 * Appendix C verification → reports/. Input errors are thrown before anything is written.
 */
export function reproduce(opts: ReproduceOptions = {}): ReproduceResult {
  const logger = opts.logger ?? silentLogger;
  const settings: TwoFramingSettings = {
    seed: opts.seed ?? DEFAULTS.seed,
    reps: opts.reps ?? DEFAULTS.reps,
    // Per-trial data are direct observations: no attenuation unless asked (as analyze).
    attenuation: opts.attenuation ?? (opts.trials !== undefined ? 1 : DEFAULTS.attenuation),
    base: opts.base ?? DEFAULTS.base,
    alt: opts.alt ?? DEFAULTS.alt,
    interval: opts.interval ?? 'percentile',
  };
  if (settings.base === settings.alt) throw new UserError(msg.sameFraming(settings.base));
  const input = readInput(opts, settings.base, settings.alt);
  const published = readExpected(opts, logger, { ...settings, interval: settings.interval ?? 'percentile' });
  const names = opts.namesFile === undefined ? undefined : { file: opts.namesFile, map: readNamesFile(opts.namesFile) };

  const analysis = twoFraming.analyze(input.table, settings, logger);
  opts.onAnalysis?.(analysis);
  const reports = join(resolve(opts.out ?? '.'), 'reports');
  const command = ratesCommand('reproduce', input, settings, { interval: opts.interval, expect: expectFlag(published), ...verdictFlags(opts, published), names: opts.namesFile });
  const compared = compareExpected(analysis, published, opts);
  const { tableFiles, verification: checked } = verifyRates(input, analysis, reports, { command, ...reproductionExtra(compared) });
  const { reproduction, files: reproductionFiles, verification } = reproductionOutputs(reports, compared, checked, logger);
  const files = withNamedLatex([...tableFiles, ...reproductionFiles, ...twoFraming.tables.verificationFiles(reports, verification)], reports, analysis, names?.map);
  if (!opts.dryRun) writeFilesAtomic(files);
  return { input, analysis, verification, table3: twoFraming.tables.table3(analysis), reproduction, files, ...(names ? { names } : {}) };
}

/**
 * The Appendix C verification of a rates analysis and the tables it checks. `reproduce` writes
 * both; `audit` runs the same verification, so the two commands exit 3 on the same inputs.
 */
export function verifyRates(input: AnalysisInput, analysis: TwoFramingAnalysis, reports: string,
  metricsExtra?: Record<string, unknown>): { tableFiles: OutputFile[]; verification: VerificationReport } {
  const provenance = { path: input.path, sha256: input.sha256, kind: input.kind };
  const extra = { ...metricsExtra, ...(input.digitized ? { digitization: digitization.metrics(input.digitized) } : {}) };
  const tableFiles = [...twoFraming.tables.files(reports, analysis, provenance, extra),
    ...(input.digitized ? digitization.files(reports, input.digitized) : [])];
  const verification = twoFraming.verify({
    analysis,
    expectedDecisions: expectedDecisions(input),
    reportedRates: input.rates?.rows.filter((r) => r.rate).map((r) => ({
      cell: `${r.cell.key.model} / ${r.cell.key.game} / ${r.cell.key.framing}`,
      x: (r.cell.obs as { x: number }).x, n: (r.cell.obs as { n: number }).n, rate: r.rate!,
    })),
    tables: twoFraming.tables.csvNames(tableFiles),
    grid: input.trials?.grid,
  });
  return { tableFiles, verification };
}
