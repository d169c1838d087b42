/**
 * A finished batch's output and error files → trial records. A line answered with status 200 goes
 * through the same reader (readWire) and the same scoring (scoreResponse) as a synchronous call;
 * a line with an error, a non-200 status or an unreadable body leaves its trial pending, to be
 * sent again in a later batch. Lines naming trials outside the chunk are ignored.
 */
import { readWire, type WireProvider, wireRequest } from '../providers/openai-wire.js';
import { isObject } from '../providers/openai-common.js';
import { scoreResponse } from '../scoring/score.js';
import { checkResponse } from '../runner/response.js';
import type { Prices } from '../runner/plan.js';
import type { TrialRecord, TrialSpec } from '../types.js';
import { trialKey } from './chunks.js';

/** The discount when a design gives prices but no batch_discount (OpenAI's Batch API: half price). */
export const DEFAULT_BATCH_DISCOUNT = 0.5;

export interface CollectedResults {
  readonly records: TrialRecord[];
  /** Trials of the chunk without a usable answer (left pending). */
  readonly pending: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** USD at batch prices, when the model has prices. */
  readonly cost: number | null;
}

/** The body of a successful output line, or undefined. */
function answerOf(line: Record<string, unknown>): Record<string, unknown> | undefined {
  const res = line.response;
  if (line.error !== null && line.error !== undefined) return undefined;
  if (!isObject(res) || res.status_code !== 200 || !isObject(res.body)) return undefined;
  return res.body;
}

function record(spec: TrialSpec, runId: number, batchId: string, body: Record<string, unknown>): TrialRecord | undefined {
  const provider = spec.model.provider as WireProvider;
  const raw = JSON.stringify(body);
  const w = wireRequest(spec, provider, spec.model.baseUrl);
  const request = { ...w.record, batch: { id: batchId, custom_id: trialKey(spec) } };
  let read;
  try {
    // The same check of a response as the synchronous runner's (runner/response.ts).
    read = checkResponse({ ...readWire(provider, body, raw), raw, request });
  } catch {
    return undefined; // malformed: pending, sent again
  }
  const sc = scoreResponse(spec, read);
  return {
    runId, model: spec.model.id, game: spec.game, framing: spec.framing, rep: spec.rep, factors: spec.factors, prompt: spec.prompt,
    request: JSON.stringify(request), response: raw, text: read.text, action: sc.action, pCooperate: sc.pCooperate, scoring: sc.scoring,
    modelSnapshot: read.modelSnapshot ?? null, inputTokens: read.usage?.inputTokens ?? null, outputTokens: read.usage?.outputTokens ?? null,
    latencyMs: null, status: sc.status, error: sc.reason, attempts: 1,
  };
}

/** Parse the output and error files of a chunk's batch (either may be empty). */
export function collectResults(o: {
  runId: number; batchId: string; specs: readonly TrialSpec[]; files: readonly string[]; prices?: Prices & { batchDiscount?: number };
}): CollectedResults {
  const byKey = new Map(o.specs.map((s) => [trialKey(s), s]));
  const done = new Map<string, TrialRecord>();
  let inputTokens = 0, outputTokens = 0;
  for (const text of o.files) {
    for (const l of text.split('\n')) {
      if (l.trim() === '') continue;
      let line: unknown;
      try { line = JSON.parse(l); } catch { continue; }
      if (!isObject(line) || typeof line.custom_id !== 'string') continue;
      const spec = byKey.get(line.custom_id);
      const body = answerOf(line);
      if (!spec || !body || done.has(line.custom_id)) continue;
      const rec = record(spec, o.runId, o.batchId, body);
      if (!rec) continue;
      done.set(line.custom_id, rec);
      inputTokens += rec.inputTokens ?? 0;
      outputTokens += rec.outputTokens ?? 0;
    }
  }
  const p = o.prices;
  const cost = p ? ((inputTokens * p.input + outputTokens * p.output) / 1e6) * (1 - (p.batchDiscount ?? DEFAULT_BATCH_DISCOUNT)) : null;
  return { records: [...done.values()], pending: o.specs.length - done.size, inputTokens, outputTokens, cost };
}
