/**
 * The one guard of every reader of a samegame input file (docs/reference/specifications.md,
 * "Limits"): rates, per-trial, published and effects files, manifests, names files, designs,
 * story templates and log-format descriptions. A file is opened without waiting (O_NONBLOCK: a
 * FIFO would block open() until a writer came) and looked at before a byte is read: anything but a
 * regular file — a FIFO, a device such as /dev/zero that never ends, a socket, a directory — is
 * refused then, as is a file above the reader's size limit. Symbolic links are followed.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { kindOf } from './out-dir.js';

/** Why a file cannot be read: its error code (ENOENT, EACCES, EISDIR) or what it is instead of a regular file. */
export type InputFault = { readonly reason: string } | { readonly size: number };

const notRegular = (kind: string) => `not a regular file: ${kind}`;

/** An open file descriptor on a regular file and its size, or why there is none (nothing stays open then). */
export function openRegular(path: string, maxBytes: number): { fd: number; size: number } | InputFault {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    return { reason: (e as NodeJS.ErrnoException).code ?? String(e) };
  }
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    return { reason: st.isDirectory() ? 'EISDIR' : notRegular(kindOf(st)) };
  }
  if (st.size > maxBytes) { closeSync(fd); return { size: st.size }; }
  return { fd, size: st.size };
}

/**
 * A regular file's bytes, or why not. The size is checked before reading and again while reading
 * (a file that grows past the limit is refused, never read without end).
 */
export function readRegular(path: string, maxBytes: number): { bytes: Buffer } | InputFault {
  const o = openRegular(path, maxBytes);
  if (!('fd' in o)) return o;
  try {
    const parts: Buffer[] = [];
    let total = 0;
    const buf = Buffer.alloc(Math.min(1 << 16, Math.max(o.size, 1) + 1));
    for (;;) {
      const got = readSync(o.fd, buf, 0, buf.length, null);
      if (got === 0) break;
      total += got;
      if (total > maxBytes) return { size: total };
      parts.push(Buffer.from(buf.subarray(0, got)));
    }
    return { bytes: Buffer.concat(parts) };
  } catch (e) {
    return { reason: (e as NodeJS.ErrnoException).code ?? String(e) };
  } finally {
    closeSync(o.fd);
  }
}
