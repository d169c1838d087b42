import type { Command } from 'commander';
import { addFigureFlags, figureStyleOf, type FigureFlags } from './figure-flags.js';
import { audit, AUDIT_DEFAULTS } from '../commands/audit.js';
import { defaultSearchThreads, MIN_CELLS_FOR_WORKERS } from '../commands/audit-threads.js';
import { UserError } from '../core/errors.js';
import { FLAG_LIMITS, MAX_REPS, addRatesFlags, inputFlags, parseIntFlag, terminalLogger, type RatesFlags } from './options.js';
import { cliMsg } from './messages.js';

interface AuditFlags extends RatesFlags {
  readingError: number; searchReps: number; maxCells: number; threads?: number;
}

export function registerAudit(program: Command): void {
  const cmd = addRatesFlags(program
    .command('audit')
    .description(('Audit how far the conclusions depend on reconstructed data: consistency, reading error, tipping points, attenuation, influence, Monte ' +
      'Carlo error')), AUDIT_DEFAULTS)
    .option('--reading-error <k>', 'counts each cell may be off by (1 ≈ one pixel on a 300-pixel axis)', parseIntFlag('--reading-error', 0,
      FLAG_LIMITS.readingError), AUDIT_DEFAULTS.readingError)
    .option('--search-reps <n>', 'replicates during the tipping-point search (results are re-checked at --reps)', parseIntFlag('--search-reps', 1, MAX_REPS),
      AUDIT_DEFAULTS.searchReps)
    .option('--max-cells <n>', 'largest table to audit, in cells (the searches grow with the square of the cells)', parseIntFlag('--max-cells', 1,
      FLAG_LIMITS.maxCells), AUDIT_DEFAULTS.maxCells)
    .option('--threads <n>',
      (`threads for the searches of tables of ${MIN_CELLS_FOR_WORKERS} cells or more (default: the cores, at most 4; here ${defaultSearchThreads()}); the ` +
        `results do not depend on it`), parseIntFlag('--threads', 1, FLAG_LIMITS.threads))
    .option('-q, --quiet', 'print only the summary');
  addFigureFlags(cmd)
    .action(async (o: AuditFlags & FigureFlags, cmd: Command) => {
      if (o.digitized !== undefined && cmd.getOptionValueSource('readingError') !== 'default') throw new UserError(cliMsg.readingErrorCounts());
      await audit({ ...o, ...inputFlags(o, cmd), logger: terminalLogger(o.quiet), figureStyle: figureStyleOf(o), failOnChecks: true });
    });
}
