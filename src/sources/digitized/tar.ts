import { closeSync, readSync } from 'node:fs';
import { openRegular } from '../../core/input-file.js';
import { UserError } from '../../core/errors.js';
import { sourcesDigitizedMsg } from './messages.js';

/**
 * A safe reader of a project .tar (POSIX ustar, with the GNU long-name and pax extensions): it
 * lists the members from their headers, checking each, and reads the few it needs into memory.
 * Nothing is ever written to disk. Refused, before any member's content is read: a member whose
 * name is absolute or steps out with "..", a link (hard or symbolic), any member that is not a
 * regular file or a folder, a member above `maxMember` bytes, more than `maxMembers` members, and
 * a damaged header (bad checksum, size past the end of the file).
 */
export interface TarMember { readonly name: string; readonly offset: number; readonly size: number }

export interface TarLimits { readonly maxMember: number; readonly maxMembers: number }

const BLOCK = 512;
const EXT_LIMIT = 64 * 1024;

const cstr = (b: Buffer, start: number, len: number) => {
  const s = b.subarray(start, start + len);
  const z = s.indexOf(0);
  return (z < 0 ? s : s.subarray(0, z)).toString('utf8');
};

function octal(b: Buffer, start: number, len: number): number | undefined {
  if ((b[start] & 0x80) !== 0) return undefined; // base-256 sizes: far above any limit here
  const t = cstr(b, start, len).trim();
  return /^[0-7]+$/.test(t) ? parseInt(t, 8) : t === '' ? 0 : undefined;
}

function checksumOk(h: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
  return octal(h, 148, 8) === sum;
}

/** A member name inside the project: relative, no "..", no drive or backslash tricks; "./" and trailing "/" dropped. */
export function safeName(name: string): string | undefined {
  if (name.startsWith('/') || name.includes('\\') || /^[a-zA-Z]:/.test(name) || name.includes('\0')) return undefined;
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) return undefined;
  return parts.join('/');
}

/** pax "len key=value\n" records: the path, when one is given. */
function paxPath(text: string): string | undefined {
  let path: string | undefined;
  for (const rec of text.split('\n')) {
    const m2 = /^\d+ ([^=]+)=(.*)$/.exec(rec);
    if (m2 && (m2[1] === 'path' || m2[1] === 'linkpath')) path = m2[1] === 'path' ? m2[2] : path;
  }
  return path;
}

/** Open a .tar: its regular members (checked), and a reader of one member's bytes. */
export function openTar(path: string, file: string, limits: TarLimits): { members: TarMember[]; read(member: TarMember): Buffer; close(): void } {
  const o = openRegular(path, Infinity); // a FIFO or a device is refused before a byte is read
  if (!('fd' in o)) throw new UserError(sourcesDigitizedMsg.tarDamaged(file, 0, 'reason' in o ? o.reason : String(o.size)));
  const fd = o.fd;
  try {
    const members = listMembers(fd, o.size, file, limits);
    return {
      members,
      read(mem) { const b = Buffer.alloc(mem.size); if (mem.size) readSync(fd, b, 0, mem.size, mem.offset); return b; },
      close() { closeSync(fd); },
    };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

function listMembers(fd: number, total: number, file: string, limits: TarLimits): TarMember[] {
  const members: TarMember[] = [];
  const h = Buffer.alloc(BLOCK);
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= total) {
    readSync(fd, h, 0, BLOCK, offset);
    if (h.every((x) => x === 0)) return members; // end of archive
    if (!checksumOk(h)) throw new UserError(sourcesDigitizedMsg.tarDamaged(file, offset, 'header checksum'));
    const size = octal(h, 124, 12);
    const type = String.fromCharCode(h[156] || 48);
    const prefix = cstr(h, 257, 6).startsWith('ustar') ? cstr(h, 345, 155) : '';
    const raw = longName ?? (prefix ? `${prefix}/${cstr(h, 0, 100)}` : cstr(h, 0, 100));
    longName = undefined;
    const data = offset + BLOCK;
    if (size === undefined) throw new UserError(sourcesDigitizedMsg.tarDamaged(file, offset, 'size field'));
    if (data + size > total) {
      if (size > limits.maxMember) throw new UserError(sourcesDigitizedMsg.tooLarge(file, `member ${JSON.stringify(raw)}`, size, limits.maxMember));
      throw new UserError(sourcesDigitizedMsg.tarDamaged(file, offset, 'a member runs past the end of the file'));
    }
    const next = data + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'L' || type === 'x' || type === 'g') {
      if (size > EXT_LIMIT) throw new UserError(sourcesDigitizedMsg.tarDamaged(file, offset, 'extended header too long'));
      const b = Buffer.alloc(size);
      readSync(fd, b, 0, size, data);
      if (type === 'L') longName = cstr(b, 0, size);
      else if (type === 'x') longName = paxPath(b.toString('utf8'));
      offset = next;
      continue;
    }
    const name = safeName(raw);
    if (name === undefined) throw new UserError(sourcesDigitizedMsg.tarUnsafePath(file, raw));
    if (type === '1' || type === '2') throw new UserError(sourcesDigitizedMsg.tarLink(file, raw));
    if (type !== '0' && type !== '7' && type !== '5') throw new UserError(sourcesDigitizedMsg.tarSpecial(file, raw, type));
    if (type !== '5') {
      if (size > limits.maxMember) throw new UserError(sourcesDigitizedMsg.tooLarge(file, `member ${JSON.stringify(raw)}`, size, limits.maxMember));
      if (members.length >= limits.maxMembers) throw new UserError(sourcesDigitizedMsg.tarTooMany(file, limits.maxMembers));
      members.push({ name, offset: data, size });
    }
    offset = next;
  }
  if (offset !== total) throw new UserError(sourcesDigitizedMsg.tarDamaged(file, offset, 'the file ends inside a header'));
  return members;
}
