import type { Command } from 'commander';
import { relative } from 'node:path';
import { reproduce, DEFAULTS } from '../pipeline/reproduce.js';
import { writeFilesAtomic } from '../io/atomic.js';
import { twoFramingFigures } from '../emit/figures/two-framing.js';
import { reproduceReportFile } from '../emit/reproduce-outputs.js';
import { reportMsg } from '../log/messages-report.js';
import { addRatesFlags, dataPath, terminalLogger, type RatesFlags } from './options.js';

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
      const logger = terminalLogger(o.quiet);
      const res = reproduce({ ...o, data: dataPath(o, cmd), logger, dryRun: true });
      const figures = twoFramingFigures(res.analysis);
      const file = reproduceReportFile(res, o.out, figures);
      writeFilesAtomic([file]);
      logger.info(reportMsg.wroteReport(relative(process.cwd(), file.path) || file.path));
      logger.info(reportMsg.reportSummary(figures.length));
    });
}
