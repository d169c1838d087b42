/**
 * The rules every reader of samegame input applies, in one place (docs/reference/specifications.md, "Names" and "Limits"):
 * which text is a name, which column names a header or a JSON object may have, and how large an
 * input file, a line and a name may be. Rates files, per-trial files, published values and stores
 * all call these, so a name one reader takes is a name every reader takes.
 */
import { closeSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { UserError } from '../core/errors.js';
import { openRegular } from '../core/input-file.js';
import { at, msg } from '../core/messages/common.js';
import { levelFault, nameFault } from '../core/names-rule.js';
import { sourcesMsg } from './messages.js';
// The name rule itself lives in core (a design is held to it too): every reader takes it from here.
export { controlCharacter, levelFault, MAX_NAME_LENGTH, nameFault } from '../core/names-rule.js';

/** An input file (rates, per-trial, published) is read whole or streamed; above this it is refused before reading. */
export const MAX_INPUT_BYTES = 512 * 2 ** 20;
/** A line of a JSONL file, in characters (UTF-16 code units): a longer one is refused as soon as it is seen. */
export const MAX_LINE_CHARS = 16 * 2 ** 20;
/** Nesting of a JSON value (objects and arrays) in a JSONL line. */
export const MAX_JSON_DEPTH = 64;

/** A level of a row, refused with file, line and field when it is not a valid name. */
export function checkLevel(file: string, line: number, field: string, value: string): void {
  const fault = levelFault(field, value);
  if (fault !== undefined) throw new UserError(at(file, line, field, fault));
}

/**
 * Column names — a CSV header, the keys of a JSON object — each a name and each at most once
 * (a second "rate" column would silently lose to the first, a second JSON key win over it).
 * The keys of a nested JSON object are not column names: `duplicatesOnly` checks them for repeats alone.
 * A CSV header of one field that holds a tab, semicolon or bar is refused as not comma-separated
 * (`delimited`: a header split by another delimiter, a log format's, is not).
 */
export function checkColumnNames(file: string, line: number, names: readonly string[], where: 'header' | 'delimited' | 'object', duplicatesOnly = false): void {
  const separated = where === 'header' ? sourcesMsg.notCommaSeparated(file, names) : undefined;
  if (separated !== undefined) throw new UserError(separated);
  const seen = new Map<string, number>();
  names.forEach((h, i) => {
    const fault = duplicatesOnly ? undefined : nameFault(h);
    if (fault !== undefined) throw new UserError(at(file, line, h, fault));
    const first = seen.get(h);
    if (first !== undefined) {
      throw new UserError(where !== 'object' ? msg.duplicateColumn(file, h, first + 1, i + 1) : sourcesMsg.duplicateKey(file, line, h, first + 1, i + 1));
    }
    seen.set(h, i);
  });
}

/**
 * An input file opened for reading: a regular file within MAX_INPUT_BYTES (core/input-file.ts: a
 * FIFO, a device or a socket is refused before a byte is read), or one line naming it.
 */
export function openInput(path: string, file: string): number {
  const o = openRegular(path, MAX_INPUT_BYTES);
  if ('fd' in o) return o.fd;
  throw new UserError('size' in o ? sourcesMsg.fileTooLarge(file, o.size, MAX_INPUT_BYTES) : msg.fileUnreadable(file, o.reason));
}

/**
 * The chunks of an input file (64 KiB each), hashing them as they go; a file that grows past
 * MAX_INPUT_BYTES while it is read is refused then. The hash is complete once iteration ends.
 */
export function* inputChunks(path: string, file: string, hash: ReturnType<typeof createHash>): Generator<Buffer> {
  const fd = openInput(path, file);
  try {
    const buf = Buffer.alloc(1 << 16);
    let total = 0;
    for (;;) {
      let got: number;
      try { got = readSync(fd, buf, 0, buf.length, null); } catch (e) { throw new UserError(msg.fileUnreadable(file,
        (e as NodeJS.ErrnoException).code ?? String(e))); }
      if (got === 0) break;
      total += got;
      if (total > MAX_INPUT_BYTES) throw new UserError(sourcesMsg.fileTooLarge(file, total, MAX_INPUT_BYTES));
      hash.update(buf.subarray(0, got));
      yield buf.subarray(0, got);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Text must be UTF-8: bytes that are not (a Latin-1 file, a cut multi-byte character) are refused
 * naming the first line that holds them, never read as U+FFFD (two different names would become one).
 */
export function checkUtf8(buf: Buffer, file: string, firstLine = 1): void {
  if (isUtf8(buf)) return;
  let line = firstLine;
  for (let start = 0; start < buf.length;) {
    const nl = buf.indexOf(0x0a, start);
    const end = nl < 0 ? buf.length : nl;
    if (!isUtf8(buf.subarray(start, end))) break;
    line++;
    start = end + 1;
  }
  throw new UserError(sourcesMsg.notUtf8(file, line));
}

/** The file's bytes: text without a BOM, and its SHA-256. */
export function readInputFile(path: string, file: string): { buf: Buffer; text: string; sha256: string } {
  const hash = createHash('sha256');
  const parts: Buffer[] = [];
  for (const chunk of inputChunks(path, file, hash)) parts.push(Buffer.from(chunk));
  const buf = Buffer.concat(parts);
  checkUtf8(buf, file);
  return { buf, text: buf.toString('utf8').replace(/^\uFEFF/, ''), sha256: hash.digest('hex') };
}
