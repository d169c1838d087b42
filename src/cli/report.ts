import type { Command } from 'commander';
import { DEFAULTS } from '../commands/reproduce.js';
import { addExpectFlag, addRatesFlags, EXPECT_DEFAULT_NOTE, inputFlags, SIMULTANEOUS_HELP, terminalLogger, type RatesFlags } from './options.js';
import { addNamesFlags } from './figure-flags.js';
import { poolingOption } from './pooling.js';
import type { TablePooling } from '../commands/pipeline/table-pooling.js';

/**
 * `samegame report`: regenerate reports/report.html alone, from the same flags as `reproduce`.
 * The report draws its figures in the browser, so nothing is rendered here.
 */
export function registerReport(program: Command): void {
  addNamesFlags(addExpectFlag(addRatesFlags(program
    .command('report')
    .description('Write reports/report.html: one self-contained HTML report (tables, interactive figures, verification, provenance)'), DEFAULTS),
      EXPECT_DEFAULT_NOTE), false)
    .option('--simultaneous', SIMULTANEOUS_HELP)
    .option('-q, --quiet', 'print nothing but errors')
    .addOption(poolingOption('report'))
    .action(async (o: RatesFlags & { names?: string; pooling?: TablePooling }, cmd: Command) => {
      const { report } = await import('../commands/report.js');
      report({ ...o, ...inputFlags(o, cmd), logger: terminalLogger(o.quiet), namesFile: o.names, failOnChecks: true });
    });
}
