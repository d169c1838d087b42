import type { Command } from 'commander';
import { DEFAULTS } from '../commands/reproduce.js';
import { addExpectFlag, addRatesFlags, EXPECT_DEFAULT_NOTE, inputFlags, SIMULTANEOUS_HELP, terminalLogger, type RatesFlags } from './options.js';
import type { TablePooling } from '../commands/pipeline/table-pooling.js';
import { poolingOption } from './pooling.js';
import { addFigureFlags, addLatexFlag, addNamesFlags, figureStyleOf, type FigureFlags, type LatexFlags } from './figure-flags.js';

export function registerReproduce(program: Command): void {
  const cmd = addExpectFlag(addRatesFlags(program
    .command('reproduce')
    .description('Reproduce Table 2, Table 3, metrics, figures, the HTML report and the Appendix C verification from a rates file'), DEFAULTS),
      EXPECT_DEFAULT_NOTE)
    .option('--simultaneous', SIMULTANEOUS_HELP)
    .option('-q, --quiet', 'print only the table')
    .addOption(poolingOption());
  addLatexFlag(addFigureFlags(addNamesFlags(cmd, false)))
    .action(async (o: RatesFlags & FigureFlags & LatexFlags & { names?: string; pooling?: TablePooling }, cmd: Command) => {
      const { reproduce } = await import('../commands/reproduce-outputs.js');
      await reproduce({ ...o, ...inputFlags(o, cmd), logger: terminalLogger(o.quiet), figureStyle: figureStyleOf(o), namesFile: o.names, failOnChecks: true });
    });
}
