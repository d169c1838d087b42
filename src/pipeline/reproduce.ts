import { join, resolve } from 'node:path';
import { readRates, type RatesInput } from '../io/rates-csv.js';
import { writeFilesAtomic, type OutputFile } from '../io/atomic.js';
import { UserError } from '../log/errors.js';
import { msg } from '../log/messages.js';
import type { Logger } from '../log/logger.js';
import { silentLogger } from '../log/logger.js';
import { packageRoot, SHIPPED_RATES } from '../paths.js';
import { analyzeTwoFraming, type TwoFramingAnalysis, type TwoFramingSettings } from './two-framing.js';
import { verifyTwoFraming } from '../verify/appendix-c.js';
import type { VerificationReport } from '../verify/report.js';
import { table3Rows, type Table3Row } from '../emit/tables.js';
import { twoFramingFiles } from '../emit/two-framing-files.js';
import { reproducePresentationFiles } from '../emit/reproduce-outputs.js';

export const DEFAULTS = {
  seed: 20240818,
  reps: 10_000,
  attenuation: 0.7,
  base: 'business',
  alt: 'friend-sharing',
} as const;

export interface ReproduceOptions extends Partial<TwoFramingSettings> {
  /** Rates file; the shipped seed 002 data when absent. */
  data?: string;
  /** Output directory; reports/ (and figures/) are written under it. */
  out?: string;
  logger?: Logger;
  /** Compute only; write nothing (the library use). */
  dryRun?: boolean;
}

export interface ReproduceResult {
  readonly input: RatesInput;
  readonly analysis: TwoFramingAnalysis;
  readonly verification: VerificationReport;
  readonly table3: Table3Row[];
  /** Files written (or that would be written), absolute paths. */
  readonly files: readonly OutputFile[];
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
    attenuation: opts.attenuation ?? DEFAULTS.attenuation,
    base: opts.base ?? DEFAULTS.base,
    alt: opts.alt ?? DEFAULTS.alt,
  };
  if (settings.base === settings.alt) throw new UserError(msg.sameFraming(settings.base));
  const displayPath = opts.data ?? SHIPPED_RATES;
  const path = opts.data ? resolve(opts.data) : join(packageRoot, SHIPPED_RATES);
  const input = readRates(path, { base: settings.base, alt: settings.alt, displayPath });

  const analysis = analyzeTwoFraming(input.table, settings, logger);
  const verification = verifyTwoFraming({
    analysis,
    inputDecisions: input.rows.reduce((s, r) => s + (r.cell.obs.kind === 'binary' ? r.cell.obs.n : 0), 0),
    reportedRates: input.rows.filter((r) => r.rate).map((r) => ({
      cell: `${r.cell.key.model} / ${r.cell.key.game} / ${r.cell.key.framing}`,
      x: (r.cell.obs as { x: number }).x, n: (r.cell.obs as { n: number }).n, rate: r.rate!,
    })),
    empiricalTables: ['table2', 'table3'],
    externalTables: [],
  });

  const reports = join(resolve(opts.out ?? '.'), 'reports');
  const provenance = { path: input.path, sha256: input.sha256, kind: 'reconstructed rates' };
  const files = twoFramingFiles(reports, analysis, verification, provenance);
  if (!opts.dryRun) writeFilesAtomic(files);
  return { input, analysis, verification, table3: table3Rows(analysis), files };
}

/**
 * `samegame reproduce` as the CLI runs it: `reproduce` plus figures/ (Vega-Lite spec, SVG, PNG)
 * and reports/report.html, all written as one atomic set. Rendering lives in src/emit; it is
 * async (Vega's dataflow), hence a separate function so `reproduce` stays synchronous.
 */
export async function reproduceWithFigures(opts: ReproduceOptions = {}): Promise<ReproduceResult> {
  const res = reproduce({ ...opts, dryRun: true });
  const files = [...res.files, ...await reproducePresentationFiles(res, opts.out ?? '.', opts.logger)];
  if (!opts.dryRun) writeFilesAtomic(files);
  return { ...res, files };
}
