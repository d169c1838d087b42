/**
 * Batch input files: one JSONL line per trial, written by the model's batch vendor (vendors.ts):
 * OpenAI `{custom_id, method, url, body}`, Anthropic `{custom_id, params}`, Gemini
 * `{request, metadata: {key}}`, each carrying exactly what the synchronous provider sends. Trials
 * are grouped per model (one model, hence one endpoint, per file) and split so that no file
 * exceeds the vendor's limits (or the run's, when lower).
 */
import { createHash } from 'node:crypto';
import { UserError } from '../../core/errors.js';
import { batchMsg } from '../../core/messages/batch.js';
import type { TrialSpec } from '../types.js';
import { trialKey } from './openai.js';
import type { BatchLimits } from './vendor.js';
import { vendorOf } from './vendors.js';

export { trialKey } from './openai.js';
export type { BatchLimits } from './vendor.js';

/** The run's own limits per file (`--batch-size` lowers the lines); each vendor's apply too. */
export const BATCH_LIMITS = { maxLines: 50_000, maxBytes: 200 * 1_000_000 } as const;

export interface PlannedChunk {
  readonly model: string;
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
  return { model, endpoint, specs, text, bytes, hash: sha256(text) };
}

/** The limits of one model's files: the run's, lowered to its vendor's. */
function limitsFor(spec: TrialSpec, run: BatchLimits): BatchLimits {
  const v = vendorOf(spec.model).limits;
  return { maxLines: Math.min(run.maxLines, v.maxLines), maxBytes: Math.min(run.maxBytes, v.maxBytes) };
}

/**
 * Split trials into files: consecutive trials of one model share a file until it would exceed
 * the limits. Order is kept. A single request larger than a file may hold is a UserError.
 */
export function planChunks(specs: readonly TrialSpec[], limits: BatchLimits = BATCH_LIMITS): PlannedChunk[] {
  const out: PlannedChunk[] = [];
  let cur: { model: string; endpoint: string; limits: BatchLimits; specs: TrialSpec[]; lines: string[]; bytes: number } | undefined;
  for (const s of specs) {
    const { line, endpoint } = batchLine(s);
    const size = Buffer.byteLength(line);
    const lim = cur?.model === s.model.id ? cur.limits : limitsFor(s, limits);
    if (size > lim.maxBytes) throw new UserError(batchMsg.lineTooLarge(trialKey(s), size, lim.maxBytes));
    if (cur && (cur.model !== s.model.id || cur.specs.length >= lim.maxLines || cur.bytes + size > lim.maxBytes)) {
      out.push(finish(cur.model, cur.endpoint, cur.specs, cur.lines, cur.bytes));
      cur = undefined;
    }
    cur ??= { model: s.model.id, endpoint, limits: lim, specs: [], lines: [], bytes: 0 };
    cur.specs.push(s);
    cur.lines.push(line);
    cur.bytes += size;
  }
  if (cur) out.push(finish(cur.model, cur.endpoint, cur.specs, cur.lines, cur.bytes));
  return out;
}
