import type { Command } from 'commander';
import { relative } from 'node:path';
import { reproduce, DEFAULTS } from '../commands/reproduce.js';
import { writeFilesAtomic } from '../core/atomic.js';
import { reproduceFigures, reproduceReportFile } from '../commands/reproduce-outputs.js';
import { UserError } from '../core/errors.js';
import { msg } from '../core/messages/common.js';
import { reportMsg } from '../core/messages/report.js';
import { addExpectFlag, addRatesFlags, EXPECT_DEFAULT_NOTE, inputFlags, SIMULTANEOUS_HELP, terminalLogger, type RatesFlags } from './options.js';
import { checkOutDir, OUT_SUBDIRS } from '../core/out-dir.js';
import { addNamesFlags } from './figure-flags.js';
import { poolingOption } from './pooling.js';
import type { TablePooling } from '../commands/meta-pooling.js';

/**
 * `samegame report`: regenerate reports/report.html alone, from the same flags as `reproduce`.
 * The report draws its figures in the browser, so nothing is rendered here.
 */
export function registerReport(program: Command): void {
  addNamesFlags(addExpectFlag(addRatesFlags(program
    .command('report')
    .description('Write reports/report.html: one self-contained HTML report (tables, interactive figures, verification, provenance)'), DEFAULTS), EXPECT_DEFAULT_NOTE), false)
    .option('--simultaneous', SIMULTANEOUS_HELP)
    .option('-q, --quiet', 'print nothing but errors')
    .addOption(poolingOption('report'))
    .action((o: RatesFlags & { names?: string; pooling?: TablePooling }, cmd: Command) => {
      checkOutDir('--out', o.out, OUT_SUBDIRS);
      const logger = terminalLogger(o.quiet);
      const res = reproduce({ ...o, ...inputFlags(o, cmd), logger, dryRun: true, namesFile: o.names });
      const figures = reproduceFigures(res);
      const file = reproduceReportFile(res, o.out, figures);
      writeFilesAtomic([file]);
      logger.info(reportMsg.wroteReport(relative(process.cwd(), file.path) || file.path));
      for (const n of res.notes) logger.warn(n);
      logger.info(reportMsg.reportSummary(figures.length));
      // As reproduce: the report is written (it shows the failure), and the exit code says so.
      if (!res.verification.passed) {
        throw new UserError(msg.checksFailed(res.verification.checks.filter((c) => !c.passed).map((c) => c.name)), 3);
      }
    });
}
