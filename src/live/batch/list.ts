/**
 * `samegame batches STORE`: the chunks of a store's batch runs (state, request counts, batch id,
 * cost so far) read from the store alone, and cancelling the open ones through their vendor's API.
 */
import type { TrialStore } from '../store/store.js';
import { BatchChunks, BatchTableFault, type ChunkRow } from '../store/batch-chunks.js';
import { storedDesign } from '../store/stored-design.js';
import { UserError } from '../../core/errors.js';
import { terminalText } from '../../core/terminal.js';
import type { ModelSpec } from '../types.js';
import { vendorIdOf, BATCH_VENDORS } from './vendors.js';
import { liveBatchMsg } from './messages.js';

/** kind: what the chunk's lines ask, decisions or comprehension probes (keys.ts). */
export const CHUNK_COLUMNS = ['chunk', 'run', 'model', 'kind', 'state', 'status', 'requests', 'completed', 'failed', 'stored', 'batch', 'cost_usd'] as const;

/** One row per chunk, as text cells in CHUNK_COLUMNS order; a table samegame did not write is one line naming the store. */
export function chunkRows(store: TrialStore, file: string): string[][] {
  let chunks: ChunkRow[];
  try {
    chunks = BatchChunks.readOnly(store)?.chunks() ?? [];
  } catch (e) {
    if (e instanceof BatchTableFault) throw new UserError(liveBatchMsg.tableDamaged(file, e.message));
    throw e;
  }
  return chunks.map((c) => [String(c.id), String(c.runId), c.model, c.kind, c.state, c.status ?? '', String(c.lines), String(c.completed),
    String(c.failed), String(c.stored), c.batchId ?? '', c.cost === null ? '' : c.cost.toFixed(4)]);
}

/**
 * What a run that sends nothing as batches leaves waiting in its open batches (a `--batch --no-wait` run's probes, resumed
 * without --batch): one line saying how to collect them, or undefined when none wait.
 */
export function openBatchesNotice(store: TrialStore, file: string, runId: number): string | undefined {
  const open = BatchChunks.readOnly(store)?.open(runId) ?? [];
  if (open.length === 0) return undefined;
  // counted by the chunk's kind (a decision's key of a model named "probe" starts as a probe's does)
  const lines = (kind: string) => open.filter((c) => c.kind === kind).reduce((n, c) => n + c.lines, 0);
  return liveBatchMsg.waitingInBatches(file, lines('decision'), lines('probe'));
}

/** Columns padded to a common width; every cell terminal-safe (a stored control character is shown, never acted on). */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const safe = rows.map((r) => r.map((c) => terminalText(c)));
  const w = header.map((h, i) => Math.max(h.length, ...safe.map((r) => r[i].length)));
  return [header, ...safe].map((r) => r.map((c, i) => c.padEnd(w[i])).join('  ').trimEnd()).join('\n');
}

/** The model of a run as its stored design names it (base URL as stored, or the override); a damaged design is StoreFault. */
export function storedModel(store: TrialStore, runId: number, modelId: string, baseUrl?: string): ModelSpec | undefined {
  const run = store.runs().find((r) => r.id === runId);
  if (!run) return undefined;
  const m = storedDesign(run).models?.find((x) => x.id === modelId);
  if (!m?.id || m.provider === undefined) return undefined;
  const url = baseUrl ?? m.baseUrl;
  return { id: m.id, provider: m.provider, model: m.model ?? m.id, options: {}, ...(url ? { baseUrl: url } : {}),
    ...(m.apiKeyEnv ? { apiKeyEnv: m.apiKeyEnv } : {}) };
}

/** Ask the API to cancel every open batch; returns how many were asked. Chunks stay `created` and are collected by the next run. */
export async function cancelOpen(store: TrialStore, o: { env: Readonly<Record<string, string | undefined>>; timeoutMs: number;
  baseUrl?: string }): Promise<number> {
  const open = (BatchChunks.readOnly(store)?.chunks() ?? []).filter((c: ChunkRow) => c.state === 'created');
  let n = 0;
  for (const c of open) {
    const m = storedModel(store, c.runId, c.model, o.baseUrl);
    const v = m === undefined ? undefined : vendorIdOf(m.provider);
    if (!m || !v || BATCH_VENDORS[v].isTerminal(c.status ?? '')) continue;
    await BATCH_VENDORS[v].client(m, { env: o.env, timeoutMs: o.timeoutMs }).cancel(c.batchId!);
    n++;
  }
  return n;
}
