import { Command, CommanderError } from 'commander';
import { UserError } from '../log/errors.js';
import { toolInfo } from '../paths.js';
import { registerReproduce } from './reproduce.js';
import { registerReport } from './report.js';
import { registerPrompts } from './prompts.js';
import { registerRun } from './run.js';
import { registerExport } from './export.js';
import { registerAnalyze } from './analyze.js';
import { registerPlan } from './plan.js';
import { registerAudit } from './audit.js';

/** The commander program; each command lives in its own file and registers itself here. */
export function buildProgram(): Command {
  const program = new Command('samegame')
    .description('Strategic-robustness audits of LLM social agents')
    .version(toolInfo().version)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerReproduce(program);
  registerReport(program);
  registerPrompts(program);
  registerRun(program);
  registerExport(program);
  registerAnalyze(program);
  registerPlan(program);
  registerAudit(program);
  return program;
}

/** Run the CLI; resolves to the exit code. User errors print one line, no stack. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (e) {
    // Commander printed the message; help and --version exit 0, a bad flag or argument 2 like every user error.
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof UserError) {
      process.stderr.write(`samegame: ${e.message}\n`);
      return e.exitCode;
    }
    throw e;
  }
}
