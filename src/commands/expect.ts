/** `--expect FILE` for reproduce, report and analyze: which published values, and what comparing with them adds. */
import { join, resolve } from 'node:path';
import type { OutputFile } from '../core/atomic.js';
import { makeReport, type VerificationReport } from '../core/checks.js';
import type { Logger } from '../core/logger.js';
import { reproductionMsg } from '../core/messages/reproduction.js';
import { packageRoot } from '../core/paths.js';
import { readPublished, SHIPPED_PUBLISHED, type PublishedValues } from '../sources/published.js';
import type { TwoFramingAnalysis } from '../analyses/two-framing/index.js';
import {
  compareWithPublished, reproductionCheck, reproductionFile, reproductionSentence, type Reproduction,
} from '../analyses/reproduction/index.js';

export interface ExpectOptions {
  /** The rates file; undefined means the shipped data. */
  readonly data?: string;
  /** A per-trial file given instead of rates (then no default published values). */
  readonly trials?: string;
  /** A digitized project given instead of rates (then no default published values). */
  readonly digitized?: string;
  /** Published values: a path; false for none; undefined for the default (the shipped file with the shipped rates only). */
  readonly expect?: string | false;
}

/** The published values to compare with, read and validated before anything is computed; says so when it is the shipped file. */
export function readExpected(o: ExpectOptions, logger: Logger): PublishedValues | undefined {
  if (o.expect === false) return undefined;
  if (o.expect !== undefined) return readPublished(resolve(o.expect), o.expect);
  if (o.data !== undefined || o.trials !== undefined || o.digitized !== undefined) return undefined;
  logger.info(reproductionMsg.usingShipped(SHIPPED_PUBLISHED));
  return readPublished(join(packageRoot, SHIPPED_PUBLISHED), SHIPPED_PUBLISHED);
}

export interface ReproductionOutputs {
  readonly reproduction?: Reproduction;
  readonly files: OutputFile[];
  /** The verification with `published_values_reproduced` added when there was something to compare with. */
  readonly verification: VerificationReport;
}

/** Compare with the published values (if any): reports/reproduction.csv and the verification check. */
export function reproductionOutputs(reportsDir: string, analysis: TwoFramingAnalysis, verification: VerificationReport,
  published: PublishedValues | undefined, logger: Logger): ReproductionOutputs {
  if (!published) return { files: [], verification };
  const reproduction = compareWithPublished({ analysis }, published);
  logger.info(reproductionSentence(reproduction));
  return {
    reproduction,
    files: [reproductionFile(reportsDir, reproduction)],
    verification: makeReport([...verification.checks, reproductionCheck(reproduction)], [...verification.degenerate]),
  };
}
