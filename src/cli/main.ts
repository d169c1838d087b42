import { Command, CommanderError } from 'commander';
import { UserError } from '../core/errors.js';
import { terminalText } from '../core/terminal.js';
import { toolInfo } from '../core/paths.js';
import { msg } from '../core/messages/common.js';
import { stdoutError, stdoutWriteCode } from '../core/stdout.js';

type Register = (program: Command) => void;

/**
 * Every command, in the order `--help` lists them. Each lives in its own file and is imported
 * only when it runs (or for the full --help), so `samegame reproduce` does not load the live-run
 * module, the OpenAI SDK or SQLite: start-up is most of a short command's time.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  reproduce: async () => (await import('./reproduce.js')).registerReproduce,
  report: async () => (await import('./report.js')).registerReport,
  init: async () => (await import('./init.js')).registerInit,
  prompts: async () => (await import('./prompts.js')).registerPrompts,
  preregister: async () => (await import('./preregister.js')).registerPreregister,
  run: async () => (await import('./run.js')).registerRun,
  batches: async () => (await import('./batches.js')).registerBatches,
  export: async () => (await import('./export.js')).registerExport,
  analyze: async () => (await import('./analyze.js')).registerAnalyze,
  replay: async () => (await import('./replay.js')).registerReplay,
  capsule: async () => (await import('./capsule.js')).registerCapsule,
  sql: async () => (await import('./sql.js')).registerSql,
  plan: async () => (await import('./plan.js')).registerPlan,
  audit: async () => (await import('./audit.js')).registerAudit,
  coverage: async () => (await import('./coverage.js')).registerCoverage,
  meta: async () => (await import('./meta.js')).registerMeta,
};

/** The commander program with the command argv names (all commands when it names none). */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command('samegame')
    .description('Strategic-robustness audits of LLM social agents')
    .version(toolInfo().version)
    // A flag or argument error is one line, like every user error, with the hint on the same line.
    .configureOutput({ outputError: (str,
      write) => write(`samegame: ${str.trim().replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')} (run with --help for usage)\n`) })
    .exitOverride();
  const name = argv[2];
  // --version prints before any command is looked at: it needs none of them.
  const names = name === '--version' || name === '-V' ? [] : name !== undefined && Object.hasOwn(COMMANDS, name) ? [name] : Object.keys(COMMANDS);
  for (const register of await Promise.all(names.map((n) => COMMANDS[n]()))) register(program);
  return program;
}

/**
 * A reader that goes away (`samegame plan … | head -1`) closes the pipe: the next write fails
 * with EPIPE. That is the reader's choice, not an error: exit 0 at once, quietly, as `cat` does.
 * Installed once, by the launcher, on the process's own stdout and stderr.
 */
export function exitQuietlyOnClosedPipe(): void {
  for (const s of [process.stdout, process.stderr]) {
    s.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(0);
      // A write that fails later (a full device): one line, where it can still be seen, and exit 2.
      const code = stdoutWriteCode(e);
      if (code === undefined) throw e;
      if (s === process.stdout) process.stderr.write(`samegame: ${msg.cannotWriteStdout(code)}\n`);
      process.exit(2);
    });
  }
}

/** Run the CLI; resolves to the exit code. User errors print one line, no stack. */
export async function main(argv: string[]): Promise<number> {
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (e) {
    // Commander printed the message; help and --version exit 0, a bad flag or argument 2 like every user error.
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    const err = stdoutError(e); // a failed write to standard output that no command caught: one line too
    if (err instanceof UserError) {
      process.stderr.write(`samegame: ${terminalText(err.message, true)}\n`);
      return err.exitCode;
    }
    throw e;
  }
}
