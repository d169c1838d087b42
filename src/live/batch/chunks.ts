/**
 * Batch input files: one JSONL line per trial, `{custom_id, method, url, body}` with custom_id the
 * trial key and body exactly what the synchronous provider sends, grouped per model (one model,
 * hence one endpoint, per file) and split so that no file exceeds the Batch API's limits.
 */
import { createHash } from 'node:crypto';
import { UserError } from '../../core/errors.js';
import { batchMsg } from '../../core/messages/batch.js';
import { isWireProvider, wireRequest, type BatchEndpoint } from '../providers/openai-wire.js';
import type { TrialSpec } from '../types.js';

/** The Batch API's limits per input file: 50,000 requests and 200 MB. */
export const BATCH_LIMITS = { maxLines: 50_000, maxBytes: 200 * 1_000_000 } as const;

export interface BatchLimits {
  readonly maxLines: number;
  readonly maxBytes: number;
}

/** A trial's key as its batch custom_id: model|game|framing|rep (ids never contain "|"). */
export const trialKey = (s: { model: { id: string } | string; game: string; framing: string; rep: number }): string =>
  `${typeof s.model === 'string' ? s.model : s.model.id}|${s.game}|${s.framing}|${s.rep}`;

export interface PlannedChunk {
  readonly model: string;
  readonly endpoint: BatchEndpoint;
  readonly specs: readonly TrialSpec[];
  /** The file's text: one JSON line per spec, each ending in "\n". */
  readonly text: string;
  readonly bytes: number;
  readonly hash: string;
}

/** The JSONL line of one trial (with its newline). */
export function batchLine(spec: TrialSpec): { line: string; endpoint: BatchEndpoint } {
  const provider = spec.model.provider;
  if (!isWireProvider(provider)) throw new Error(`provider ${provider} has no batch endpoint`);
  const w = wireRequest(spec, provider, spec.model.baseUrl);
  return { line: `${JSON.stringify({ custom_id: trialKey(spec), method: 'POST', url: w.url, body: w.body })}\n`, endpoint: w.url };
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function finish(model: string, endpoint: BatchEndpoint, specs: TrialSpec[], lines: string[], bytes: number): PlannedChunk {
  const text = lines.join('');
  return { model, endpoint, specs, text, bytes, hash: sha256(text) };
}

/**
 * Split trials into files: consecutive trials of one model share a file until it would exceed
 * `limits`. Order is kept. A single request larger than maxBytes is a UserError.
 */
export function planChunks(specs: readonly TrialSpec[], limits: BatchLimits = BATCH_LIMITS): PlannedChunk[] {
  const out: PlannedChunk[] = [];
  let cur: { model: string; endpoint: BatchEndpoint; specs: TrialSpec[]; lines: string[]; bytes: number } | undefined;
  for (const s of specs) {
    const { line, endpoint } = batchLine(s);
    const size = Buffer.byteLength(line);
    if (size > limits.maxBytes) throw new UserError(batchMsg.lineTooLarge(trialKey(s), size, limits.maxBytes));
    if (cur && (cur.model !== s.model.id || cur.specs.length >= limits.maxLines || cur.bytes + size > limits.maxBytes)) {
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
