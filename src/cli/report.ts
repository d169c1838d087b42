import type { Command } from 'commander';
import { relative } from 'node:path';
import { reproduce, DEFAULTS } from '../pipeline/reproduce.js';
import { SHIPPED_RATES } from '../paths.js';
import { writeFilesAtomic } from '../io/atomic.js';
import { twoFramingFigures } from '../emit/figures/two-framing.js';
import { reproduceReportFile } from '../emit/reproduce-outputs.js';
import { reportMsg } from '../log/messages-report.js';
import { parseIntFlag, parseUnitFlag, terminalLogger } from './options.js';

/**
 * `samegame report`: regenerate reports/report.html alone, from the same flags as `reproduce`.
 * The report draws its figures in the browser, so nothing is rendered here.
 */
export function registerReport(program: Command): void {
  program
    .command('report')
    .description('Write reports/report.html: one self-contained HTML report (tables, interactive figures, verification, provenance)')
    .option('--data <file>', 'rates CSV (model, game, framing, n, rate|cooperate)', SHIPPED_RATES)
    .option('--out <dir>', 'output directory (reports/ goes under it)', '.')
    .option('--seed <n>', 'bootstrap seed', parseIntFlag('--seed'), DEFAULTS.seed)
    .option('--reps <n>', 'bootstrap replicates', parseIntFlag('--reps', 1), DEFAULTS.reps)
    .option('--attenuation <a>', 'attenuation of the conservative transform (1 = none)', parseUnitFlag('--attenuation'), DEFAULTS.attenuation)
    .option('--base <name>', 'base framing', DEFAULTS.base)
    .option('--alt <name>', 'alternative framing', DEFAULTS.alt)
    .option('-q, --quiet', 'print nothing but errors')
    .action((o: { data: string; out: string; seed: number; reps: number; attenuation: number; base: string; alt: string; quiet?: boolean }) => {
      const logger = terminalLogger(o.quiet);
      const res = reproduce({ ...o, data: o.data === SHIPPED_RATES ? undefined : o.data, logger, dryRun: true });
      const figures = twoFramingFigures(res.analysis);
      const file = reproduceReportFile(res, o.out, figures);
      writeFilesAtomic([file]);
      logger.info(reportMsg.wroteReport(relative(process.cwd(), file.path) || file.path));
      logger.info(reportMsg.reportSummary(figures.length));
    });
}
