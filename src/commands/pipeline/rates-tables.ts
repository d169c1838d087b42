/**
 * The tables of a rates input (rates CSV, per-trial file, published log), shared by the commands
 * that read one: `reproduce` (which adds figures and the report) and `report` (the report alone).
 */
import { join, resolve } from 'node:path';
import type { DisplayNames } from '../../core/display-names.js';
import { labelSynthetic, originExtra, syntheticWarning } from '../../core/provenance.js';
import { inputNames } from '../input-names.js';
import type { FigureStyle } from '../../render/paper-style.js';
import { attenuationOf, inputFlagsOf, inputNotes, readInput, sourceOf, type AnalysisInput, type InputChoice } from '../../sources/input.js';
import type { OutputFile } from '../../core/atomic.js';
import { UserError } from '../../core/errors.js';
import { msg } from '../../core/messages/common.js';
import type { Logger } from '../../core/logger.js';
import { silentLogger } from '../../core/logger.js';
import { withNamedLatex, twoFraming, type Table3Row, type TwoFramingAnalysis, type TwoFramingSettings } from '../../analyses/two-framing/index.js';
import type { VerificationReport } from '../../core/checks.js';
import type { Reproduction } from '../../analyses/reproduction/index.js';
import { compareExpected, expectFlag, readExpected, reproductionExtra, reproductionOutputs, verdictFlags, type ExpectOptions } from '../expect.js';
import { regenerateCommand } from '../../core/command-line.js';
import { poolingFiles, type TablePooling } from './table-pooling.js';
import { verifyRates } from '../source-analyses.js';
import { latexOf } from '../command-options.js';
import { pipelineMsg } from './messages.js';

/** Table 3 as the terminal shows it (reproduce, report, analyze). */
export { table3Text } from '../../analyses/two-framing/terminal.js';
export { framingTestText, hasFramingTests } from '../../analyses/two-framing/framing-tests.js';

/** The paper's settings: the defaults of every rates command. */
export const DEFAULTS = twoFraming.defaults;

export interface ReproduceOptions extends Partial<TwoFramingSettings>, InputChoice, Pick<ExpectOptions, 'verdictAlpha' | 'publishedReps' | 'publishedMethod'> {
  /** Output directory; reports/ (and figures/) are written under it. */
  out?: string;
  /** `--figure-style paper` (render/paper-style.ts); the default style otherwise. */
  figureStyle?: FigureStyle;
  /** `--latex-width`: the text width in pt the .tex tables are laid out for (345, a one-column article, by default; 240 for a two-column layout's column). */
  latexWidth?: number;
  /** `--names FILE`: display names for the report, figures, terminal and LaTeX (the CSVs keep the ids and add the names, metrics.json a `names` map). */
  namesFile?: string;
  logger?: Logger;
  /**
   * Published values to compare with (reports/reproduction.csv and the check
   * published_values_reproduced); by default the shipped paper tables for the shipped rates and
   * none for any other --data; false for none.
   */
  expect?: string | false;
  /** Receives the two-framing analysis as soon as it is computed (before the checks): a caller may start drawing its figures. */
  onAnalysis?: (analysis: TwoFramingAnalysis) => void;
  /** Table 3 over games: fixed (the paper's means, default) or random (also reports/table3-random.csv). */
  pooling?: TablePooling;
}

export interface ReproduceResult {
  readonly input: AnalysisInput;
  readonly analysis: TwoFramingAnalysis;
  readonly verification: VerificationReport;
  readonly table3: Table3Row[];
  /** Every published number beside the computed one, when there were published values to compare with. */
  readonly reproduction?: Reproduction;
  /** The files the command writes (pipeline/write.ts), absolute paths. */
  readonly files: readonly OutputFile[];
  /** Table 3 over games (random: reports/table3-random.csv as well). */
  readonly pooling?: TablePooling;
  /** The reader's notes (a published log's), shown after the files. */
  readonly notes: readonly string[];
  /** Display names (`--names FILE`: the file as given, and its names), when given. */
  readonly names?: { readonly file?: string; readonly map: DisplayNames };
  /** `--latex-width` as given (the regenerate command names it). */
  readonly latexWidth?: number;
}

/**
 * The command line that regenerates the outputs of a rates command (reproduce, report) with these
 * settings: the input (rates or per-trial, with its cluster and factor columns), the bootstrap,
 * the interval method when not the default, and the published values compared with.
 */
export function ratesCommand(command: string, input: AnalysisInput, s: TwoFramingSettings,
  extra: { readonly interval?: string; readonly expect?: string; readonly verdictAlpha?: number; readonly publishedReps?: number; readonly names?: string;
    readonly publishedMethod?: string; readonly pooling?: string; readonly latexWidth?: number } = {}): string {
  return regenerateCommand(command, [], {
    ...inputFlagsOf(input), seed: s.seed, reps: s.reps, attenuation: s.attenuation, base: s.base, alt: s.alt,
    interval: extra.interval === 'bca' || extra.interval === 'cluster-bootstrap' ? extra.interval : undefined, simultaneous: s.simultaneous === true,
      expect: extra.expect, verdictAlpha: extra.verdictAlpha, publishedReps: extra.publishedReps, names: extra.names,
    publishedMethod: extra.publishedMethod, pooling: extra.pooling === 'random' ? 'random' : undefined, latexWidth: extra.latexWidth,
  });
}

/**
 * The tables of `samegame reproduce` (no figures, no report): rates CSV → reconstruction →
 * estimands with bootstrap intervals → Appendix C verification → the files of reports/, as values:
 * nothing is written here. Input errors are thrown before any work. The library's `reproduce`
 * (reproduce-outputs.ts) adds the figures and the report, `report` the report alone; the pipeline
 * (pipeline/write.ts) writes them.
 */
export function reproduceTables(opts: ReproduceOptions = {}): ReproduceResult {
  const logger = opts.logger ?? silentLogger;
  const source = sourceOf(opts);
  if (opts.base !== undefined && opts.base === opts.alt) throw new UserError(msg.sameFraming(opts.base));
  const input = readInput(opts, opts.base, opts.alt);
  const settings: TwoFramingSettings = {
    seed: opts.seed ?? DEFAULTS.seed,
    reps: opts.reps ?? DEFAULTS.reps,
    attenuation: attenuationOf(source, opts.attenuation),
    base: input.pair.base,
    alt: input.pair.alt,
    interval: opts.interval ?? 'percentile',
    ...(opts.clusterInterval ? { clusterInterval: opts.clusterInterval } : {}),
    ...(opts.simultaneous ? { simultaneous: true } : {}),
  };
  if (settings.base === settings.alt) throw new UserError(msg.sameFraming(settings.base));
  if ((opts.base === undefined || opts.alt === undefined) && (settings.base !== DEFAULTS.base || settings.alt !== DEFAULTS.alt)) {
    logger.info(pipelineMsg.framingPair(settings.base, settings.alt));
  }
  const names = inputNames(input.table, input.origin, opts.namesFile, logger);
  // The comparison reads intervals the way the publication computed them (percentile unless
  // --published-method says otherwise), so the run's own --interval changes no compared number.
  const published = readExpected(opts, source, logger, { ...settings, interval: opts.publishedMethod ?? 'percentile' });

  const analysis = twoFraming.analyze(input.table, settings, logger);
  opts.onAnalysis?.(analysis);
  const reports = join(resolve(opts.out ?? '.'), 'reports');
  const command = ratesCommand('reproduce', input, settings, { interval: opts.clusterInterval ?? opts.interval, expect: expectFlag(published),
    ...verdictFlags(opts, published), names: opts.namesFile, pooling: opts.pooling, latexWidth: opts.latexWidth });
  const compared = compareExpected(analysis, published, opts);
  const { tableFiles, verification: checked } = verifyRates(input, analysis, reports, { command, ...reproductionExtra(compared),
    ...originExtra(input.origin) }, names?.map);
  const { reproduction, files: reproductionFiles, verification } = reproductionOutputs(reports, compared, checked, logger, latexOf(opts),
    names?.map);
  const files = labelSynthetic(withNamedLatex([...tableFiles, ...reproductionFiles, ...twoFraming.tables.verificationFiles(reports, verification),
    ...poolingFiles(opts.pooling, reports, analysis)], reports, analysis, names?.map, latexOf(opts)), input.origin);
  if (input.origin.synthetic) logger.warn(syntheticWarning(input.origin));
  return { input, analysis, verification, table3: twoFraming.tables.table3(analysis), reproduction, files, notes: inputNotes(input), pooling: opts.pooling,
    ...(names ? { names } : {}), ...(opts.latexWidth === undefined ? {} : { latexWidth: opts.latexWidth }) };
}
