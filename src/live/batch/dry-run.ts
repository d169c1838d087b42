/**
 * What a batch run will send and cost (`samegame run --batch --dry-run`): the files and lines
 * it would write, the tokens (estimated as for a synchronous run) and the price at batch rates,
 * the design's prices less its batch discount.
 */
import { estimateInputTokens, estimateOutputTokens, type Prices } from '../runner/plan.js';
import type { TrialSpec } from '../types.js';
import { BATCH_LIMITS, batchKey, batchLine, ChunkSplitter, type BatchLimits } from './chunks.js';
import { DEFAULT_BATCH_DISCOUNT } from './collect.js';

export interface BatchPlan {
  readonly total: number;
  readonly stored: number;
  readonly inBatches: number;
  readonly files: number;
  readonly lines: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** USD at batch prices, when every model with lines to send has prices. */
  readonly cost?: number;
}

export function planBatchRun(specs: readonly TrialSpec[], isStored: (s: TrialSpec) => boolean, inOpen: ReadonlySet<string>,
  prices: (s: TrialSpec) => (Prices & { readonly batchDiscount?: number }) | undefined, limits: BatchLimits = BATCH_LIMITS): BatchPlan {
  let stored = 0, inBatches = 0, lines = 0, inputTokens = 0, outputTokens = 0, cost = 0, priced = true;
  // The files are counted where the run would split them, without writing their text.
  const split = new ChunkSplitter(limits);
  for (const s of specs) {
    if (isStored(s)) { stored++; continue; }
    if (inOpen.has(batchKey(s))) { inBatches++; continue; }
    split.add(s, Buffer.byteLength(batchLine(s).line));
    lines++;
    const i = estimateInputTokens(s), o = estimateOutputTokens(s);
    inputTokens += i;
    outputTokens += o;
    const p = prices(s);
    if (p === undefined) priced = false;
    else cost += ((i * p.input + o * p.output) / 1e6) * (1 - (p.batchDiscount ?? DEFAULT_BATCH_DISCOUNT));
  }
  return { total: specs.length, stored, inBatches, files: split.files, lines, inputTokens, outputTokens, ...(priced ? { cost } : {}) };
}
