import { join, resolve } from 'node:path';
import { readRates, type RatesInput } from '../sources/rates-csv.js';
import { levels } from '../core/cells.js';
import { writeFilesAtomic, type OutputFile } from '../core/atomic.js';
import { UserError } from '../core/errors.js';
import { msg } from '../core/messages/common.js';
import type { Logger } from '../core/logger.js';
import { silentLogger } from '../core/logger.js';
import { packageRoot, SHIPPED_RATES } from '../core/paths.js';
import { analyzeTwoFraming, TWO_FRAMING_DEFAULTS, type TwoFramingAnalysis, type TwoFramingSettings } from '../analyses/two-framing/index.js';
import { verifyTwoFraming } from '../analyses/two-framing/checks.js';
import type { VerificationReport } from '../core/checks.js';
import { table3Rows, type Table3Row } from '../analyses/two-framing/tables.js';
import { csvTables, twoFramingTableFiles, verificationFiles } from '../analyses/two-framing/files.js';

/** The paper's settings: the defaults of every rates command. */
export const DEFAULTS = TWO_FRAMING_DEFAULTS;

export interface ReproduceOptions extends Partial<TwoFramingSettings> {
  /** Rates file; the shipped Same Game, Different Story data when absent. */
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
 * The decisions a rates file represents (Same Game, Different Story Appendix C: 3 × 4 × 2 cells × 300 = 7,200): with
 * one n for every row, models × games × framings × n, so a missing or extra cell shows; otherwise
 * Σ n over the rows.
 */
function expectedDecisions(input: RatesInput): { value: number; source: string } {
  const ns = input.rows.map((r) => (r.cell.obs as { n: number }).n);
  if (ns.every((n) => n === ns[0])) {
    const dims = ['model', 'game', 'framing'].map((f) => levels(input.table, f).length);
    return { value: dims[0] * dims[1] * dims[2] * ns[0], source: `models × games × framings × n (${dims.join(' × ')} × ${ns[0]})` };
  }
  return { value: ns.reduce((a, b) => a + b, 0), source: 'Σ n over the rows of the input' };
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
  const reports = join(resolve(opts.out ?? '.'), 'reports');
  const { tableFiles, verification } = verifyRates(input, analysis, reports);
  const files = [...tableFiles, ...verificationFiles(reports, verification)];
  if (!opts.dryRun) writeFilesAtomic(files);
  return { input, analysis, verification, table3: table3Rows(analysis), files };
}

/**
 * The Appendix C verification of a rates analysis and the tables it checks. `reproduce` writes
 * both; `audit` runs the same verification, so the two commands exit 3 on the same inputs.
 */
export function verifyRates(input: RatesInput, analysis: TwoFramingAnalysis, reports: string): { tableFiles: OutputFile[]; verification: VerificationReport } {
  const provenance = { path: input.path, sha256: input.sha256, kind: 'reconstructed rates' };
  const tableFiles = twoFramingTableFiles(reports, analysis, provenance);
  const verification = verifyTwoFraming({
    analysis,
    expectedDecisions: expectedDecisions(input),
    reportedRates: input.rows.filter((r) => r.rate).map((r) => ({
      cell: `${r.cell.key.model} / ${r.cell.key.game} / ${r.cell.key.framing}`,
      x: (r.cell.obs as { x: number }).x, n: (r.cell.obs as { n: number }).n, rate: r.rate!,
    })),
    tables: csvTables(tableFiles),
  });
  return { tableFiles, verification };
}
