/**
 * `samegame report`: reports/report.html alone, from the same input and settings as `reproduce`.
 * The report draws its figures in the browser, so nothing is rendered here.
 */
import { relative } from 'node:path';
import { reproduceTables, type ReproduceOptions, type ReproduceResult } from './pipeline/rates-tables.js';
import { reproduceFigures, reproduceReportFile } from './pipeline/rates-report.js';
import { finish } from './pipeline/write.js';
import { checkOut, type CommandOptions } from './command-options.js';
import { commandsMsg } from './messages.js';

/** Compute as `reproduce` does, write reports/report.html (unless dryRun); the result's files are that one file. */
export function report(opts: ReproduceOptions & Pick<CommandOptions, 'failOnChecks' | 'dryRun'> = {}): ReproduceResult {
  checkOut(opts);
  const res = reproduceTables(opts);
  const figures = reproduceFigures(res);
  const file = reproduceReportFile(res, opts.out ?? '.', figures);
  // As reproduce: the report is written (it shows the failure), and the exit code says so.
  return finish({ result: { ...res, files: [file] }, files: [file], checks: res.verification, print: (logger) => {
    logger.info(commandsMsg.wroteReport(relative(process.cwd(), file.path) || file.path));
    for (const n of res.notes) logger.warn(n);
    logger.info(commandsMsg.reportSummary(figures.length));
  } }, opts);
}
