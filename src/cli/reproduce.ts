import type { Command } from 'commander';
import { relative } from 'node:path';
import { DEFAULTS, framingTestText, hasFramingTests, table3Text } from '../commands/reproduce.js';
import { reproduceWithFigures } from '../commands/reproduce-outputs.js';
import { msg } from '../core/messages/common.js';
import { UserError } from '../core/errors.js';
import { addExpectFlag, addRatesFlags, EXPECT_DEFAULT_NOTE, inputFlags, SIMULTANEOUS_HELP, terminalLogger, type RatesFlags } from './options.js';
import { checkOutDir, OUT_SUBDIRS } from '../core/out-dir.js';
import { poolingLines, type TablePooling } from '../commands/meta-pooling.js';
import { poolingOption } from './pooling.js';
import { addFigureFlags, addNamesFlags, figureStyleOf, type FigureFlags } from './figure-flags.js';
import { shown } from '../core/display-names.js';

export function registerReproduce(program: Command): void {
  const cmd = addExpectFlag(addRatesFlags(program
    .command('reproduce')
    .description('Reproduce Table 2, Table 3, metrics, figures, the HTML report and the Appendix C verification from a rates file'), DEFAULTS), EXPECT_DEFAULT_NOTE)
    .option('--simultaneous', SIMULTANEOUS_HELP)
    .option('-q, --quiet', 'print only the table')
    .addOption(poolingOption());
  addFigureFlags(addNamesFlags(cmd, false))
    .action(async (o: RatesFlags & FigureFlags & { names?: string; pooling?: TablePooling }, cmd: Command) => {
      checkOutDir('--out', o.out, OUT_SUBDIRS);
      const logger = terminalLogger(o.quiet);
      const res = await reproduceWithFigures({ ...o, ...inputFlags(o, cmd), logger, figureStyle: figureStyleOf(o), namesFile: o.names });
      const rows = res.table3.map((r) => ({ ...r, model: shown(res.names?.map, r.model) }));
      process.stdout.write(`${table3Text(rows, res.analysis.settings.attenuation, res.analysis.boot.method, res.analysis.bands?.c)}\n${poolingLines(o.pooling, res.analysis)}`);
      if (hasFramingTests(res.analysis)) logger.info(framingTestText(res.analysis));
      for (const f of res.files) logger.info(msg.wrote(relative(process.cwd(), f.path) || f.path));
      // What the reading of a log left out (a short match, a game without a cooperative action): warnings, as analyze prints them.
      for (const n of res.notes) logger.warn(n);
      for (const n of res.analysis.boot.notes) logger.warn(n);
      if (!res.verification.passed) {
        throw new UserError(msg.checksFailed(res.verification.checks.filter((c) => !c.passed).map((c) => c.name)), 3);
      }
      logger.info(`verification: ${res.verification.checks.length} checks passed; ${res.verification.degenerate.length} degenerate cells listed in reports/verification.md`);
      for (const w of res.verification.checks.flatMap((c) => c.warnings ?? [])) logger.warn(w);
    });
}
