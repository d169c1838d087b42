/**
 * Batch input files: one JSONL line per trial, written by the model's batch vendor (vendors.ts):
 * OpenAI `{custom_id, method, url, body}`, Anthropic `{custom_id, params}`, Gemini
 * `{request, metadata: {key}}`, each carrying exactly what the synchronous provider sends. Trials
 * are grouped per model (one model, hence one endpoint, per file) and split so that no file
 * exceeds the vendor's limits (or the run's, when lower); a file holds decisions or probes, never
 * both (keys.ts).
 */
import { createHash } from 'node:crypto';
import { UserError } from '../../core/errors.js';
import type { TrialSpec } from '../types.js';
import { kindOf, trialKey, type BatchKind } from './keys.js';
import type { BatchLimits } from './vendor.js';
import { vendorOf } from './vendors.js';
import { liveBatchMsg } from './messages.js';

export { batchKey, kindOf, memberKey, trialKey, type BatchKind } from './keys.js';
export type { BatchLimits } from './vendor.js';

/** The run's own limits per file (`--batch-size` lowers the lines); each vendor's apply too. */
export const BATCH_LIMITS = { maxLines: 50_000, maxBytes: 200 * 1_000_000 } as const;

export interface PlannedChunk {
  readonly model: string;
  readonly kind: BatchKind;
  readonly endpoint: string;
  readonly specs: readonly TrialSpec[];
  /** The file's text: one JSON line per spec, each ending in "\n". */
  readonly text: string;
  readonly bytes: number;
  readonly hash: string;
}

/** The JSONL line of one trial (with its newline). */
export function batchLine(spec: TrialSpec): { line: string; endpoint: string } {
  return vendorOf(spec.model).line(spec);
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function finish(model: string, endpoint: string, specs: TrialSpec[], lines: string[], bytes: number): PlannedChunk {
  const text = lines.join('');
  return { model, kind: kindOf(specs[0]), endpoint, specs, text, bytes, hash: sha256(text) };
}

/** The limits of one model's files: the run's, lowered to its vendor's. */
function limitsFor(spec: TrialSpec, run: BatchLimits): BatchLimits {
  const v = vendorOf(spec.model).limits;
  return { maxLines: Math.min(run.maxLines, v.maxLines), maxBytes: Math.min(run.maxBytes, v.maxBytes) };
}

/**
 * Where files split: consecutive trials of one model and kind share a file until it would pass the limits
 * (lines or bytes). One rule for the files a run writes (planChunks) and those a dry run counts
 * (the repeated batch dry run, which knows each line's size without writing it).
 */
export class ChunkSplitter {
  private cur: { model: string; kind: BatchKind; lines: number; bytes: number; limits: BatchLimits } | undefined;
  /** Files begun so far. */
  files = 0;

  constructor(private readonly run: BatchLimits = BATCH_LIMITS) {}

  /** One trial's line of `size` bytes: true when it begins a file. A line larger than a file may hold is a UserError. */
  add(spec: TrialSpec, size: number): boolean {
    const lim = this.cur?.model === spec.model.id ? this.cur.limits : limitsFor(spec, this.run);
    if (size > lim.maxBytes) throw new UserError(liveBatchMsg.lineTooLarge(trialKey(spec), size, lim.maxBytes));
    const kind = kindOf(spec);
    const begins = !this.cur || this.cur.model !== spec.model.id || this.cur.kind !== kind || this.cur.lines >= lim.maxLines
      || this.cur.bytes + size > lim.maxBytes;
    if (begins) { this.cur = { model: spec.model.id, kind, lines: 0, bytes: 0, limits: lim }; this.files++; }
    this.cur!.lines++;
    this.cur!.bytes += size;
    return begins;
  }
}

/** Split trials into files (ChunkSplitter), order kept, each file's text and hash made. */
export function planChunks(specs: readonly TrialSpec[], limits: BatchLimits = BATCH_LIMITS): PlannedChunk[] {
  const out: PlannedChunk[] = [];
  const split = new ChunkSplitter(limits);
  let cur: { model: string; endpoint: string; specs: TrialSpec[]; lines: string[]; bytes: number } | undefined;
  for (const s of specs) {
    const { line, endpoint } = batchLine(s);
    const size = Buffer.byteLength(line);
    if (split.add(s, size) && cur) {
      out.push(finish(cur.model, cur.endpoint, cur.specs, cur.lines, cur.bytes));
      cur = undefined;
    }
    cur ??= { model: s.model.id, endpoint, specs: [], lines: [], bytes: 0 };
    cur.specs.push(s);
    cur.lines.push(line);
    cur.bytes += size;
  }
  if (cur) out.push(finish(cur.model, cur.endpoint, cur.specs, cur.lines, cur.bytes));
  return out;
}
