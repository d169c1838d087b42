/**
 * A finished batch's lines → trial records. An answered line goes through the synchronous
 * provider's reader (the vendor's `answer`) and the same scoring as a synchronous call (a
 * decision's scoreResponse, a comprehension probe's scoreProbeResponse); a line with an error, an
 * unanswered line or an unreadable body leaves its trial pending, to be sent again in a later batch.
 * Lines naming trials outside the chunk, and second answers for a trial, are not stored (each trial
 * once, never billed twice) and counted, for a warning naming the chunk.
 */
import { scoreResponse } from '../scoring/score.js';
import { checkResponse } from '../providers/response.js';
import type { Prices } from '../runner/plan.js';
import type { TrialRecord, TrialSpec } from '../types.js';
import type { BatchVendor, ResultLine } from './vendor.js';
import { kindOf } from './keys.js';
import { scoreProbeResponse } from '../probes/score.js';

/** The discount when a design gives prices but no batch_discount (the Batch APIs of OpenAI, Anthropic and Gemini: half price). */
export const DEFAULT_BATCH_DISCOUNT = 0.5;

export interface CollectedResults {
  readonly records: TrialRecord[];
  /** Trials of the chunk without a usable answer (left pending). */
  readonly pending: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** USD at batch prices, when the model has prices. */
  readonly cost: number | null;
  /** Answers not stored: for ids outside the chunk, and further answers for an id already answered. */
  readonly unknown: number;
  readonly duplicate: number;
}

function record(vendor: BatchVendor, spec: TrialSpec, runId: number, batchId: string, customId: string, body: Record<string,
  unknown>): TrialRecord | undefined {
  const raw = JSON.stringify(body);
  let read;
  const request = { batch: { id: batchId, custom_id: customId } } as Record<string, unknown>;
  try {
    const a = vendor.answer(spec, body, raw);
    Object.assign(request, a.request, { batch: request.batch });
    // The same check of a response as the synchronous runner's (providers/response.ts).
    read = checkResponse({ ...a.read, raw, request });
  } catch {
    return undefined; // malformed: pending, sent again
  }
  const sc = kindOf(spec) === 'probe' ? scoreProbeResponse(spec, read) : scoreResponse(spec, read);
  return {
    runId, model: spec.model.id, game: spec.game, framing: spec.framing, rep: spec.rep, factors: spec.factors, prompt: spec.prompt,
    request: JSON.stringify(request), response: raw, text: read.text, action: sc.action, pCooperate: sc.pCooperate, scoring: sc.scoring,
    modelSnapshot: read.modelSnapshot ?? null, inputTokens: read.usage?.inputTokens ?? null, outputTokens: read.usage?.outputTokens ?? null,
    latencyMs: null, status: sc.status, error: sc.reason, attempts: 1, ...(spec.play === undefined ? {} : { play: spec.play }),
  };
}

/** The records of a chunk's batch from its lines (the first answer per trial counts). */
export function collectResults(o: {
  runId: number; batchId: string; specs: readonly TrialSpec[]; lines: readonly ResultLine[]; vendor: BatchVendor;
  prices?: Prices & { batchDiscount?: number };
}): CollectedResults {
  const byId = new Map(o.specs.map((s) => [o.vendor.customId(s), s]));
  const done = new Map<string, TrialRecord>();
  let inputTokens = 0, outputTokens = 0, unknown = 0, duplicate = 0;
  for (const l of o.lines) {
    const spec = byId.get(l.customId);
    if (!spec) { unknown++; continue; }
    if (done.has(l.customId)) { duplicate++; continue; }
    if (!l.body) continue;
    const rec = record(o.vendor, spec, o.runId, o.batchId, l.customId, l.body);
    if (!rec) continue;
    done.set(l.customId, rec);
    inputTokens += rec.inputTokens ?? 0;
    outputTokens += rec.outputTokens ?? 0;
  }
  const p = o.prices;
  const cost = p ? ((inputTokens * p.input + outputTokens * p.output) / 1e6) * (1 - (p.batchDiscount ?? DEFAULT_BATCH_DISCOUNT)) : null;
  return { records: [...done.values()], pending: o.specs.length - done.size, inputTokens, outputTokens, cost, unknown, duplicate };
}
