/**
 * Published game logs read as they are published (`--trials FILE --format NAME|DESCRIPTION.yaml`):
 * a log format says how rows become decisions of repeated play; the built-in formats carry the
 * knowledge of the field's logs (Akata et al., FAIRGAME). The result is `RepeatedDecisions`
 * (core/decisions.ts), whatever the shape of the log.
 */
import { createHash } from 'node:crypto';
import { closeSync, readSync } from 'node:fs';
import { openRegular } from '../../core/input-file.js';
import { resolve } from 'node:path';
import { inRounds, roundsText, type RepeatedDecision, type RepeatedDecisions, type RoundRange } from '../../core/decisions.js';
import { UserError } from '../../core/errors.js';
import { displayNames } from '../../core/display-names.js';
import { BUILTIN_LOG_FORMATS, type BuiltinLogFormatId } from './builtin.js';
import { loadLogFormat } from './description.js';
import { checkMatches, type ShortMatches } from './complete.js';
import { readLogFile, type Decision } from './read.js';
import { isParquetInput } from '../parquet/files.js';
import { withExportCsv } from '../parquet/export-read.js';
import type { LogFormat } from './schema.js';
import { sourcesLogsMsg } from './messages.js';

export { BUILTIN_LOG_FORMATS, type BuiltinLogFormatId } from './builtin.js';
export type { ShortMatches } from './complete.js';
export { LOG_FORMAT_SCHEMA_FILE, formatProblems, loadLogFormat, parseLogFormat } from './description.js';
export { logFormatJsonSchema, type LogFormat } from './schema.js';

export interface ReadLogOptions {
  /** Names of the files in messages and provenance (default: the paths as given). */
  readonly displayPaths?: readonly string[];
  /** Keep only these models' decisions (each must be a player of the log). */
  readonly models?: readonly string[];
  /** A short match (no played_rounds, shorter than the longest of its game in the file): left out (default) or kept; a note names each. */
  readonly shortMatches?: ShortMatches;
}

/** A built-in format by name, or a description file (.yaml, .yml). */
export function resolveLogFormat(nameOrPath: string): LogFormat {
  if (Object.prototype.hasOwnProperty.call(BUILTIN_LOG_FORMATS, nameOrPath)) return BUILTIN_LOG_FORMATS[nameOrPath as BuiltinLogFormatId];
  if (/\.ya?ml$/i.test(nameOrPath)) return loadLogFormat(resolve(nameOrPath), nameOrPath);
  throw new UserError(sourcesLogsMsg.unknownFormat(nameOrPath, Object.keys(BUILTIN_LOG_FORMATS)));
}

/** `--rounds 1` or `--rounds 1-3`. */
export function parseRoundRange(text: string): RoundRange {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  const from = m ? Number(m[1]) : NaN;
  const to = m ? Number(m[2] ?? m[1]) : NaN;
  if (!(from >= 1 && to >= from && to <= 1_000_000)) throw new UserError(sourcesLogsMsg.badRounds(text));
  return { from, to };
}

/** The chosen rounds hold some decision of `path`; else UserError naming the rounds it has (`--rounds 11: its rounds are 1–10`). */
export function checkRoundRange(path: string, decisions: readonly RepeatedDecision[], rounds: RoundRange | undefined): void {
  if (!rounds || decisions.length === 0) return;
  let last = 0;
  for (const d of decisions) {
    if (inRounds(d.round, rounds)) return;
    if (d.round > last) last = d.round;
  }
  roundsPastLast(path, rounds, last);
}

/** The chosen rounds begin after the last round played (`last`): UserError naming it. */
export function roundsPastLast(path: string, rounds: RoundRange, last: number): never {
  throw new UserError(sourcesLogsMsg.roundsPastLast(path, roundsText(rounds), last));
}

/** Shape decision without the other's label: the other seat's move is that of its row of the same round. */
function pairSeats(decisions: Decision[]): void {
  const byRound = new Map<string, Decision[]>();
  for (const d of decisions) {
    const k = `${d.match}\u0000${d.round}`;
    const l = byRound.get(k);
    if (l) l.push(d); else byRound.set(k, [d]);
  }
  for (const l of byRound.values()) {
    if (l.length !== 2) continue;
    const [a, b] = l;
    if (a.opponentAction === null) a.opponentAction = b.action;
    if (b.opponentAction === null) b.opponentAction = a.action;
  }
}

function keepModels(decisions: Decision[], models: readonly string[] | undefined): Decision[] {
  if (!models) return decisions;
  const present = new Set(decisions.map((d) => d.model));
  const missing = models.filter((m) => !present.has(m));
  if (missing.length) throw new UserError(sourcesLogsMsg.modelsNotInLog(missing, [...present]));
  const keep = new Set(models);
  return decisions.filter((d) => keep.has(d.model));
}

/**
 * Read published logs through a log format (a built-in name, a description file, or a format
 * object): files in order, each decision with its file, line and label. The files' hash is the
 * SHA-256 of one file, or of the lines "sha256  name" of several.
 */
export function readLogDecisions(files: readonly string[], format: string | LogFormat, opts: ReadLogOptions = {}): RepeatedDecisions {
  const f = typeof format === 'string' ? resolveLogFormat(format) : format;
  const names = files.map((p, i) => opts.displayPaths?.[i] ?? p);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new UserError(sourcesLogsMsg.sameFileTwice(twice));
  let decisions: Decision[] = [];
  const hashes: string[] = [];
  const notes = [...(f.notes ?? [])];
  files.forEach((p, i) => {
    // A Parquet export (a folder, or a glob of its files) is read as the CSV export of the same trials; its hash is the export's.
    const r = isParquetInput(p) ? withExportCsv(p, names[i], (e) => ({ ...readLogFile(e.csv, names[i], f), sha256: e.sha256 }))
      : (wrongBuiltin(p, names[i], f), readLogFile(p, names[i], f));
    hashes.push(r.sha256);
    if (r.decisions.length === 0) throw new UserError(sourcesLogsMsg.noDecisions(names[i]));
    for (const [key, s] of r.skipped) notes.push(`${names[i]}: ${sourcesLogsMsg.skipped(key, s.rows, s.why)}`);
    const checked = checkMatches(r.decisions, r.facts, opts.shortMatches ?? f.short_matches ?? 'drop');
    notes.push(...checked.notes);
    if (checked.decisions.length === 0) throw new UserError(sourcesLogsMsg.noDecisions(names[i]));
    if (f.shape === 'decision') pairSeats(checked.decisions);
    for (const d of checked.decisions) decisions.push(d);
  });
  decisions = keepModels(decisions, opts.models);
  const sha256 = hashes.length === 1 ? hashes[0]
    : createHash('sha256').update(hashes.map((h, i) => `${h}  ${names[i]}\n`).join('')).digest('hex');
  return {
    path: names.join(', '), sha256, kind: f.kind ?? `${f.name} log`, synthetic: false, decisions, notes,
    ...(f.names ? { names: displayNames(Object.entries(f.names)) } : {}), ...(f.scripted ? { scripted: f.scripted } : {}),
  };
}

/** The first line of a file (at most 64 KiB), or undefined when it cannot be read. */
function firstLine(path: string): string | undefined {
  const o = openRegular(path, Infinity); // a folder or a pipe: the reader says what it is
  if (!('fd' in o)) return undefined;
  const fd = o.fd;
  try {
    const buf = Buffer.alloc(1 << 16);
    const got = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, got).toString('utf8').replace(/^\uFEFF/, '').split(/\r?\n|\r/)[0];
  } finally {
    closeSync(fd);
  }
}

/** A file that lacks a column of the format given but has every column of another built-in format is refused naming that format. */
function wrongBuiltin(path: string, file: string, f: LogFormat): void {
  const seen = recognizeLogFormat(path);
  if (!seen || BUILTIN_LOG_FORMATS[seen.id] === f) return;
  const cols = (firstLine(path) ?? '').split(f.delimiter ?? ',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
  const missing = f.columns.find((c) => !cols.includes(c));
  if (missing !== undefined) throw new UserError(sourcesLogsMsg.otherFormat(file, missing, f.name, seen.what, seen.id));
}

/** The built-in format whose columns a file's header has (for the message of a file given without --format). */
export function recognizeLogFormat(path: string): { readonly id: BuiltinLogFormatId; readonly what: string } | undefined {
  const line = firstLine(path);
  if (line === undefined) return undefined;
  for (const [id, f] of Object.entries(BUILTIN_LOG_FORMATS) as Array<[BuiltinLogFormatId, LogFormat]>) {
    const cols = line.split(f.delimiter ?? ',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
    if (f.columns.every((c) => cols.includes(c))) return { id, what: f.looks_like ?? `a ${id} log` };
  }
  return undefined;
}
