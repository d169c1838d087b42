/**
 * Standard output as the commands write it: a write that fails (a full device, `> /dev/full`,
 * ENOSPC; an I/O error, EIO) ends the command with one line and exit 2, never a stack trace. A
 * reader that closes the pipe (EPIPE) is not an error: cli/main.ts ends quietly then.
 */
import { UserError } from './errors.js';
import { msg } from './messages/common.js';

/** The code of a failed write to standard output, when `e` is one (an errno error of a write with no path), else undefined. */
export function stdoutWriteCode(e: unknown): string | undefined {
  if (e === null || typeof e !== 'object') return undefined;
  const { code, syscall, path } = e as NodeJS.ErrnoException;
  return typeof code === 'string' && syscall === 'write' && path === undefined ? code : undefined;
}

/** The one line of a failed write to standard output (EPIPE is passed on as it is: the caller's to end quietly). */
export function stdoutError(e: unknown): unknown {
  const code = stdoutWriteCode(e);
  return code === undefined || code === 'EPIPE' ? e : new UserError(msg.cannotWriteStdout(code));
}

/** Write text to standard output; a failed write is one UserError line (stdoutError). */
export function writeStdout(text: string): void {
  try {
    process.stdout.write(text);
  } catch (e) {
    throw stdoutError(e);
  }
}
