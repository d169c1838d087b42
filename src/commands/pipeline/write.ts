/**
 * The end of every command's route: what it computed — its files (tables, .tex, figures, report,
 * metrics) as values — written once, as one atomic set, then what it prints, then its exit code.
 * No command writes an output itself: it returns `CommandOutputs`, and `finish` does the rest;
 * `dryRun` (the library's, a command's --dry-run) only leaves the writer uncalled.
 */
import { rmSync } from 'node:fs';
import { writeFilesAtomic, type OutputFile } from '../../core/atomic.js';
import type { VerificationReport } from '../../core/checks.js';
import { UserError } from '../../core/errors.js';
import { msg } from '../../core/messages/common.js';
import { silentLogger, type Logger } from '../../core/logger.js';
import { assertReplaceable } from '../../core/out-dir.js';
import { failOnChecks } from '../command-options.js';

/** What a command computed, before anything is written. */
export interface CommandOutputs<R> {
  /** The command's result (returned by `finish`). */
  readonly result: R;
  /** Every file it writes, absolute paths. */
  readonly files: readonly OutputFile[];
  /** Outputs of an earlier run that this one no longer makes (a stale file beside the new ones): removed once the files are in place. */
  readonly stale?: readonly string[];
  /** What the command prints once its files are written (logger.print: standard output; the logger: the files, notes). */
  readonly print?: (logger: Logger) => void;
  /** The Appendix C checks: a failed one is the CLI's exit code 3 (`failOnChecks`), after the files are written and printed. */
  readonly checks?: VerificationReport;
}

export interface FinishOptions {
  readonly logger?: Logger;
  /** Compute only: the writer is not called. */
  readonly dryRun?: boolean;
  readonly failOnChecks?: boolean;
}

/**
 * Write the files as one set, all or nothing (core/atomic.ts), then remove the stale ones: a
 * stale path that is not a regular file is refused before anything is written, and a failed
 * write leaves the old outputs as they were.
 */
export function writeOutputs(files: readonly OutputFile[], stale: readonly string[] = []): void {
  for (const p of stale) assertReplaceable(p);
  writeFilesAtomic(files);
  for (const p of stale) {
    try {
      rmSync(p, { force: true });
    } catch (e) {
      throw new UserError(msg.cannotWrite(p, (e as NodeJS.ErrnoException).code ?? String(e)));
    }
  }
}

/** The pipeline's last steps: write (unless dryRun), print, exit code; returns the command's result. */
export function finish<R>(out: CommandOutputs<R>, opts: FinishOptions): R {
  if (!opts.dryRun) writeOutputs(out.files, out.stale);
  out.print?.(opts.logger ?? silentLogger);
  failOnChecks(out.checks, opts);
  return out.result;
}
