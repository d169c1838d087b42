/**
 * `samegame report`: reports/report.html alone, from the same input and settings as `reproduce`.
 * The report draws its figures in the browser, so nothing is rendered here.
 */
import { relative } from 'node:path';
import { writeFilesAtomic } from '../core/atomic.js';
import { silentLogger } from '../core/logger.js';
import { reproduceTables, type ReproduceOptions, type ReproduceResult } from './pipeline/rates-tables.js';
import { reproduceFigures, reproduceReportFile } from './pipeline/rates-report.js';
import { checkOut, failOnChecks, type CommandOptions } from './command-options.js';
import { commandsMsg } from './messages.js';

/** Compute as `reproduce` does, write reports/report.html (unless dryRun); the result's files are that one file. */
export function report(opts: ReproduceOptions & Pick<CommandOptions, 'failOnChecks'> = {}): ReproduceResult {
  checkOut(opts);
  const logger = opts.logger ?? silentLogger;
  const res = reproduceTables({ ...opts, dryRun: true });
  const figures = reproduceFigures(res);
  const file = reproduceReportFile(res, opts.out ?? '.', figures);
  if (!opts.dryRun) writeFilesAtomic([file]);
  logger.info(commandsMsg.wroteReport(relative(process.cwd(), file.path) || file.path));
  for (const n of res.notes) logger.warn(n);
  logger.info(commandsMsg.reportSummary(figures.length));
  // As reproduce: the report is written (it shows the failure), and the exit code says so.
  failOnChecks(res.verification, opts);
  return { ...res, files: [file] };
}
