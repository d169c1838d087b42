/**
 * What every command of the library takes besides its input and settings, and the steps every
 * command ends with: the files it wrote, and a failed Appendix C check as the CLI's exit code 3.
 */
import { join, relative, sep } from 'node:path';
import type { OutputFile } from '../core/atomic.js';
import type { VerificationReport } from '../core/checks.js';
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { checkOutDir, OUT_SUBDIRS } from '../core/out-dir.js';
import { commandsMsg } from './messages.js';
import type { LatexOptions } from '../render/latex.js';

export interface CommandOptions {
  /** Messages and warnings; `logger.print` receives what the CLI prints on standard output. Silent by default. */
  readonly logger?: Logger;
  /** Compute only; write nothing. */
  readonly dryRun?: boolean;
  /** After writing, throw a UserError with exit code 3 when a check failed (the CLI's exit code); the library returns the result. */
  readonly failOnChecks?: boolean;
}

/** A command that renders figures: figures/ (Vega-Lite spec, SVG, PNG) and the report; false computes and writes the tables alone. Default true, as the CLI. */
export interface FigureOption {
  readonly figures?: boolean;
}

/** The output directory (`out`, else `fallback`) can hold reports/ and figures/: refused in one line before any work, unless nothing is written. */
export function checkOut(opts: { readonly out?: string; readonly dryRun?: boolean }, fallback = '.'): void {
  if (!opts.dryRun) checkOutDir('--out', opts.out ?? fallback, OUT_SUBDIRS);
}

/** "wrote PATH" for each file, relative to the working directory. */
export function logFiles(files: readonly OutputFile[], logger: Logger): void {
  for (const f of files) logger.info(commandsMsg.wrote(relative(process.cwd(), f.path) || f.path));
}

/** The path a message names a written file by (as "wrote" names it, so under --out): the file ending in `tail`, or `tail` when none was written. */
export function writtenPath(files: readonly OutputFile[], tail: string): string {
  const f = files.find((x) => x.path.split(sep).join('/').endsWith(`/${tail}`));
  return f ? relative(process.cwd(), f.path) || f.path : tail;
}

/** Exit code 3, naming the failed checks, when asked (`failOnChecks`) and a check failed. */
export function failOnChecks(verification: VerificationReport | undefined, opts: Pick<CommandOptions, 'failOnChecks'>): void {
  if (opts.failOnChecks && verification && !verification.passed) {
    throw new UserError(commandsMsg.checksFailed(verification.checks.filter((c) => !c.passed).map((c) => c.name)), 3);
  }
}

/** The layout options of the .tex tables from `--latex-width` (render/latex.ts; a one-column article's 345 pt without it). */
export const latexOf = (o: { readonly latexWidth?: number }): LatexOptions => (o.latexWidth === undefined ? {} : { width: o.latexWidth });

/** Default store of a design (`run`, `preregister`): runs/<design name>.sqlite. */
export function defaultStore(designName: string): string {
  return join('runs', `${designName.replace(/[^A-Za-z0-9._-]/g, '-')}.sqlite`);
}
