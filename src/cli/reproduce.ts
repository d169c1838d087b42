import type { Command } from 'commander';
import { relative } from 'node:path';
import { reproduceWithFigures, DEFAULTS } from '../pipeline/reproduce.js';
import { SHIPPED_RATES } from '../paths.js';
import { table3Text } from '../emit/terminal.js';
import { msg } from '../log/messages.js';
import { UserError } from '../log/errors.js';
import { parseIntFlag, parseUnitFlag, terminalLogger } from './options.js';

export function registerReproduce(program: Command): void {
  program
    .command('reproduce')
    .description('Reproduce Table 2, Table 3, metrics and the Appendix C verification from a rates file')
    .option('--data <file>', `rates CSV (model, game, framing, n, rate|cooperate)`, SHIPPED_RATES)
    .option('--out <dir>', 'output directory (reports/ and figures/ go under it)', '.')
    .option('--seed <n>', 'bootstrap seed', parseIntFlag('--seed'), DEFAULTS.seed)
    .option('--reps <n>', 'bootstrap replicates', parseIntFlag('--reps', 1), DEFAULTS.reps)
    .option('--attenuation <a>', 'attenuation of the conservative transform (1 = none)', parseUnitFlag('--attenuation'), DEFAULTS.attenuation)
    .option('--base <name>', 'base framing', DEFAULTS.base)
    .option('--alt <name>', 'alternative framing', DEFAULTS.alt)
    .option('-q, --quiet', 'print only the table')
    .action(async (o: { data: string; out: string; seed: number; reps: number; attenuation: number; base: string; alt: string; quiet?: boolean }) => {
      const logger = terminalLogger(o.quiet);
      const res = await reproduceWithFigures({ ...o, data: o.data === SHIPPED_RATES ? undefined : o.data, logger });
      process.stdout.write(`${table3Text(res.table3, o.attenuation)}\n`);
      for (const f of res.files) logger.info(msg.wrote(relative(process.cwd(), f.path) || f.path));
      if (!res.verification.passed) {
        throw new UserError(msg.checksFailed(res.verification.checks.filter((c) => !c.passed).map((c) => c.name)), 3);
      }
      logger.info(`verification: ${res.verification.checks.length} checks passed; ${res.verification.degenerate.length} degenerate cells listed in reports/verification.md`);
    });
}
