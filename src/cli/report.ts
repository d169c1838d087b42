import type { Command } from 'commander';
import { relative } from 'node:path';
import { reproduce, DEFAULTS } from '../commands/reproduce.js';
import { writeFilesAtomic } from '../core/atomic.js';
import { twoFramingFigures } from '../analyses/two-framing/figures.js';
import { reproduceReportFile } from '../commands/reproduce-outputs.js';
import { reportMsg } from '../core/messages/report.js';
import { addRatesFlags, dataPath, terminalLogger, type RatesFlags } from './options.js';
import { checkOutDir, OUT_SUBDIRS } from '../core/out-dir.js';

/**
 * `samegame report`: regenerate reports/report.html alone, from the same flags as `reproduce`.
 * The report draws its figures in the browser, so nothing is rendered here.
 */
export function registerReport(program: Command): void {
  addRatesFlags(program
    .command('report')
    .description('Write reports/report.html: one self-contained HTML report (tables, interactive figures, verification, provenance)'), DEFAULTS)
    .option('-q, --quiet', 'print nothing but errors')
    .action((o: RatesFlags, cmd: Command) => {
      checkOutDir('--out', o.out, OUT_SUBDIRS);
      const logger = terminalLogger(o.quiet);
      const res = reproduce({ ...o, data: dataPath(o, cmd), logger, dryRun: true });
      const figures = twoFramingFigures(res.analysis);
      const file = reproduceReportFile(res, o.out, figures);
      writeFilesAtomic([file]);
      logger.info(reportMsg.wroteReport(relative(process.cwd(), file.path) || file.path));
      logger.info(reportMsg.reportSummary(figures.length));
    });
}
