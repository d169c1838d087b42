/** `--expect FILE` for reproduce, report and analyze: which published values, and what comparing with them adds. */
import { join, resolve } from 'node:path';
import type { OutputFile } from '../core/atomic.js';
import { makeReport, type VerificationReport } from '../core/checks.js';
import type { Logger } from '../core/logger.js';
import type { DisplayNames } from '../core/display-names.js';
import type { LatexOptions } from '../render/latex.js';
import { packageRoot } from '../core/paths.js';
import { readPublished, type PublishedMethod, type PublishedValues } from '../sources/published.js';
import { defaultPublished, type Source } from '../sources/input.js';
import type { TwoFramingAnalysis } from '../analyses/two-framing/index.js';
import { UserError } from '../core/errors.js';
import { comparableRows, describeTables, settingChanges, type PublicationSettings } from '../analyses/reproduction/settings.js';
import { TWO_FRAMING_DEFAULTS } from '../analyses/two-framing/analysis.js';
import {
  compareWithPublished, reproductionCheck, reproductionFile, reproductionLatexFile, reproductionMetrics, reproductionSentence, type Reproduction,
    type VerdictSettings,
} from '../analyses/reproduction/index.js';
import { commandsMsg } from './messages.js';

export interface ExpectOptions {
  /** Published values: a path; false for none; undefined for the default (the shipped file with the shipped rates only). */
  readonly expect?: string | false;
  /** --verdict-alpha: the family-wise false-alarm level of the verdicts (default 0.05). */
  readonly verdictAlpha?: number;
  /** --published-reps: the publication's bootstrap replicates where a row has no `reps` (default: --reps). */
  readonly publishedReps?: number;
  /** --published-method: the publication's interval method where a row has no `method` (default percentile). */
  readonly publishedMethod?: PublishedMethod;
}

/** The verdict flags a regenerate command names: when published values are compared and the flag was given. */
export const verdictFlags = (o: Pick<ExpectOptions, 'verdictAlpha' | 'publishedReps' | 'publishedMethod'>, published: unknown) =>
  (published ? { verdictAlpha: o.verdictAlpha, publishedReps: o.publishedReps, publishedMethod: o.publishedMethod } : {});

/** The verdict settings of the options, validated (a library caller's bad value is a user error too). */
export function verdictSettings(o: ExpectOptions): VerdictSettings {
  const a = o.verdictAlpha;
  if (a !== undefined && !(a > 0 && a < 1)) throw new UserError(commandsMsg.badAlpha(String(a)));
  const b = o.publishedReps;
  if (b !== undefined && !(Number.isSafeInteger(b) && b >= 1)) throw new UserError(commandsMsg.badPublishedReps(String(b)));
  return { alpha: a, publishedReps: b, publishedMethod: o.publishedMethod };
}

/** Published values to compare with; `selection` says why only some were kept when other settings narrowed the shipped file. */
export type ExpectedValues = PublishedValues & { readonly selection?: string };

/** The --expect a regenerate command names: none when the shipped file was narrowed to the settings (the default does that again). */
export const expectFlag = (published: ExpectedValues | undefined): string | undefined => (published?.selection ? undefined : published?.path);

/** The settings the shipped publication's tables were computed with (Same Game, Different Story). */
export const SHIPPED_SETTINGS: PublicationSettings = { ...TWO_FRAMING_DEFAULTS, interval: 'percentile' };

/**
 * The published values to compare with, read and validated before anything is computed: the file
 * given, else the default of the source's kind (SOURCES); says so when it is the shipped file. The
 * default file is compared only where the settings `used` match the publication's: a changed
 * setting keeps the numbers that do not depend on it, and one line says which tables are compared
 * (an explicit --expect is compared as given).
 */
export function readExpected(o: ExpectOptions, source: Source, logger: Logger, used?: PublicationSettings): ExpectedValues | undefined {
  verdictSettings(o);
  const shipped = defaultPublished(source);
  if (o.expect === false || (o.expect === undefined && shipped === undefined)) {
    // The verdicts' level and the publication's replicates mean nothing without published values.
    const flag = o.verdictAlpha !== undefined ? '--verdict-alpha' : o.publishedReps !== undefined ? '--published-reps'
      : o.publishedMethod !== undefined ? '--published-method' : undefined;
    if (flag) throw new UserError(commandsMsg.verdictFlagWithoutExpect(flag));
    return undefined;
  }
  if (o.expect !== undefined) return readPublished(resolve(o.expect), o.expect);
  const values = readPublished(join(packageRoot, shipped!), shipped!);
  const changes = used ? settingChanges(used, SHIPPED_SETTINGS) : [];
  if (changes.length === 0) {
    logger.info(commandsMsg.usingShipped(shipped!));
    return values;
  }
  const rows = comparableRows(values.rows, changes);
  const changed = changes.map((c) => `${c.given}, published ${c.published}`).join('; ');
  const selection = commandsMsg.settingsDiffer(changed, describeTables(values.rows, rows), shipped!);
  logger.info(selection);
  return rows.length ? { ...values, rows, selection } : undefined;
}

export interface ReproductionOutputs {
  readonly reproduction?: Reproduction;
  readonly files: OutputFile[];
  /** The verification with `published_values_reproduced` added when there was something to compare with. */
  readonly verification: VerificationReport;
}

/** Compare with the published values, if any (before the table files: metrics.json records the verdict rule). */
export function compareExpected(analysis: TwoFramingAnalysis, published: ExpectedValues | undefined, o: ExpectOptions): Reproduction | undefined {
  if (!published) return undefined;
  const rep = compareWithPublished({ analysis }, published, verdictSettings(o));
  return published.selection ? { ...rep, selection: published.selection } : rep;
}

/** The field metrics.json gains from a comparison: its published file, verdict rule (α, k, z, B_c, B_p) and counts. */
export const reproductionExtra = (rep: Reproduction | undefined): Record<string, unknown> => (rep ? { reproduction: reproductionMetrics(rep) } : {});

/** reports/reproduction.csv and .tex and the verification check of a comparison (if any); the sentence and the .tex by display names. */
export function reproductionOutputs(reportsDir: string, reproduction: Reproduction | undefined, verification: VerificationReport,
  logger: Logger, latex: LatexOptions = {}, names?: DisplayNames): ReproductionOutputs {
  if (!reproduction) return { files: [], verification };
  // Numbers that differ or are missing are named even under -q (a warning), the rest is information.
  const failed = reproduction.counts.differs + reproduction.counts.missing > 0;
  (failed ? logger.warn : logger.info).call(logger, reproductionSentence(reproduction, names));
  return {
    reproduction,
    files: [reproductionFile(reportsDir, reproduction), reproductionLatexFile(reportsDir, reproduction, names, latex)],
    verification: makeReport([...verification.checks, reproductionCheck(reproduction)], [...verification.degenerate]),
  };
}
