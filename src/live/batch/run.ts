/**
 * Batch runs: the trials of a run that are neither stored nor in an open batch are written as
 * JSONL files (chunks.ts), sent as batches of their model's vendor (vendors.ts: OpenAI, Anthropic,
 * Gemini), polled with backoff, and their results stored through the synchronous path's reader
 * and scoring (collect.ts). Each chunk's step is committed before the next call
 * (store/batch-chunks.ts), so a run killed anywhere resumes where it was: a prepared chunk is
 * uploaded (OpenAI) or marked about to be created, an uploaded one is re-attached to the batch
 * the server already has for it (found by the vendor's tag) or sent, a created one is polled.
 * Trials a batch did not answer (line errors, expiry, cancellation) are sent again in a later
 * round, while rounds still store something. Comprehension probes among the specs go the same way
 * in chunks of their own (keys.ts), scored and stored as the synchronous probes are (probe_trials).
 * The probes of an earlier `--probes` still in the run's open chunks are collected by a later batch run given the design,
 * with probes or without (earlierProbes): rebuilt from the design, stored when their batch ends, never sent again, and
 * counted apart from the specs' trials (earlierStored).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Logger } from '../../core/logger.js';
import { silentLogger } from '../../core/logger.js';
import { BatchChunks, type ChunkRow } from '../store/batch-chunks.js';
import { realClock, type Clock } from '../runner/clock.js';
import type { ModelSpec, TrialRecord, TrialSpec } from '../types.js';
import type { BatchClient, BatchInfo } from './vendor.js';
import { vendorOf } from './vendors.js';
import { BATCH_LIMITS, planChunks, sha256, batchLine } from './chunks.js';
import { batchKey, kindOf, memberKey, type BatchKind } from './keys.js';
import { probeSink } from '../probes/store.js';
import { earlierProbes } from './earlier-probes.js';
import { collectResults } from './collect.js';
import { crashPoint } from './crash.js';
import { liveBatchMsg } from './messages.js';
import type { BatchRunOptions, BatchSummary } from './run-options.js';

export type { BatchRunOptions, BatchSummary };

export const MAX_POLL_MS = 300_000;

export function chunkDir(storePath: string): string {
  return `${storePath}.batches`;
}

class BatchRun {
  private readonly chunks: BatchChunks;
  private readonly byKey: Map<string, TrialSpec>;
  /**
   * Where the answers of each kind of the specs are stored and looked up. A chunk of a kind the specs do not hold (a repeated
   * run's open round while its probes are sent, probes of an earlier run with --probes) is left as it is, for a run that has them.
   */
  private readonly sinks: Map<BatchKind, { isComplete(s: TrialSpec): boolean; write(rec: TrialRecord, s: TrialSpec): boolean }>;
  private readonly apis = new Map<string, BatchClient>();
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly tag: string;
  /** Chunks found in state `uploaded` when this session began: their batch may exist already. */
  private readonly maybeCreated = new Set<number>();
  created = 0;
  /** Trials of the specs stored, and probes of an earlier run stored (counted apart: they are not of the specs' total). */
  stored = 0;
  earlierStored = 0;
  tokens = 0;
  probeTokens = 0;
  /** Batches collected that ended other than completed (expired, cancelled, failed). */
  cutShort = 0;

  /** The models of the specs and of the earlier probes collected. */
  private readonly models: Map<string, ModelSpec>;
  /** Probes of open chunks this run does not send (an earlier run's --probes): collected, never sent again. */
  readonly earlier: readonly TrialSpec[];
  private readonly earlierKeys: ReadonlySet<string>;

  constructor(private readonly o: BatchRunOptions) {
    this.chunks = BatchChunks.open(o.store);
    this.byKey = new Map(o.specs.map((s) => [batchKey(s), s]));
    this.earlier = o.design === undefined ? [] : earlierProbes(this.chunks, o.runId, o.design, this.byKey);
    this.earlierKeys = new Set(this.earlier.map(batchKey));
    for (const s of this.earlier) this.byKey.set(batchKey(s), s);
    this.models = new Map([...o.specs, ...this.earlier].map((s) => [s.model.id, s.model]));
    const kinds = new Set([...o.specs, ...this.earlier].map(kindOf));
    this.sinks = new Map();
    if (kinds.has('decision')) {
      this.sinks.set('decision', { isComplete: (s) => o.store.isComplete(o.runId, { model: s.model.id, game: s.game, framing: s.framing, rep: s.rep }),
        write: (rec) => o.store.write(rec) });
    }
    // The probe table exists once the store is migrated (BatchChunks.open).
    if (kinds.has('probe')) this.sinks.set('probe', probeSink(o.store, o.runId));
    this.logger = o.logger ?? silentLogger;
    this.clock = o.clock ?? realClock;
    this.tag = this.chunks.tag();
    for (const c of this.open()) if (c.state === 'uploaded') this.maybeCreated.add(c.id);
  }

  /** Build the API clients (and so check every key) before anything is written. */
  prepareApis(): void {
    for (const m of this.models.values()) this.api(m);
  }

  private api(m: ModelSpec): BatchClient {
    let a = this.apis.get(m.id);
    if (!a) {
      a = vendorOf(m).client(m, { env: this.o.env, timeoutMs: this.o.timeoutMs, maxWaitMs: this.o.maxWaitMs, clock: this.clock });
      this.apis.set(m.id, a);
    }
    return a;
  }

  private modelOf(id: string): ModelSpec {
    return this.models.get(id)!;
  }

  /** The run's chunks not yet collected, of the kinds of the specs. */
  open(): ChunkRow[] {
    return this.chunks.open(this.o.runId).filter((c) => this.sinks.has(c.kind));
  }

  isDone(s: TrialSpec): boolean {
    return this.sinks.get(kindOf(s))!.isComplete(s);
  }

  /** Trials neither stored nor in an open chunk (of `among`: the specs not known to be stored). */
  pending(among: readonly TrialSpec[] = this.o.specs): TrialSpec[] {
    const open = this.chunks.inOpenChunks(this.o.runId);
    return among.filter((s) => !open.has(batchKey(s)) && !this.isDone(s));
  }

  /** Write and commit (state prepared) the files of the pending trials (as just found, when given). */
  planNew(pending: readonly TrialSpec[] = this.pending()): void {
    const dir = chunkDir(this.o.storePath);
    for (const p of planChunks(pending, this.o.limits ?? BATCH_LIMITS)) {
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `run${this.o.runId}-${p.model}-${p.hash.slice(0, 16)}.jsonl`);
      writeFileSync(file, p.text);
      const id = this.chunks.prepare({
        runId: this.o.runId, model: p.model, kind: p.kind, endpoint: p.endpoint, file, fileHash: p.hash, lines: p.specs.length, bytes: p.bytes,
        members: p.specs.map((s) => ({ model: s.model.id, game: s.game, framing: s.framing, rep: s.rep })),
      });
      this.logger.info(liveBatchMsg.chunkPrepared(id, p.model, p.specs.length, p.bytes));
      crashPoint('prepared');
    }
  }

  private specsOf(c: ChunkRow): TrialSpec[] {
    return this.chunks.members(c.id).map((k) => this.byKey.get(memberKey(c.kind, k))).filter((s): s is TrialSpec => s !== undefined);
  }

  /** The chunk's file text, rebuilt from its members (the same bytes as the file written, by hash). */
  private fileText(c: ChunkRow): string {
    const text = this.specsOf(c).map((s) => batchLine(s).line).join('');
    if (sha256(text) !== c.fileHash) throw new Error(`chunk ${c.id}: its requests no longer match the file it was prepared with`);
    writeFileSync(c.file, text);
    return text;
  }

  /** prepared → uploaded → created, each step committed before the next call. */
  async submit(c0: ChunkRow): Promise<void> {
    let c = c0;
    const api = this.api(this.modelOf(c.model));
    if (c.state === 'prepared') {
      const fileId = await api.upload(this.fileText(c), basename(c.file));
      this.chunks.uploaded(c.id, fileId);
      if (fileId !== null) this.logger.info(liveBatchMsg.chunkUploaded(c.id, fileId));
      crashPoint('uploaded');
      c = this.chunks.chunk(c.id);
    }
    if (c.state !== 'uploaded') return;
    const tag = { store: this.tag, run: String(this.o.runId), chunk: String(c.id) };
    const claimed = new Set(this.chunks.chunks().flatMap((x) => (x.batchId === null ? [] : [x.batchId])));
    const hint = { since: c.updated, lines: c.lines, claimed };
    let b = this.maybeCreated.has(c.id) ? await api.find(tag, hint) : undefined;
    const reattached = b !== undefined;
    if (!b) {
      // Vendors that take the requests inline (no file id) are sent the chunk's text itself.
      b = await api.create({ text: c.fileId === null ? this.fileText(c) : '', fileId: c.fileId, endpoint: c.endpoint, tag, hint });
      this.created++;
      crashPoint('create-call');
    }
    this.chunks.created(c.id, b.id, b.status);
    this.logger.info(liveBatchMsg.chunkCreated(c.id, b.id, reattached));
    crashPoint('created');
  }

  /** Download a finished batch's files and store its results with the chunk's collected state. */
  async collect(c: ChunkRow, b: BatchInfo): Promise<void> {
    const m = this.modelOf(c.model);
    const lines = await this.api(m).results(b);
    const specs = this.specsOf(c);
    const r = collectResults({ runId: this.o.runId, batchId: b.id, specs, lines, vendor: vendorOf(m),
      prices: specs.length > 0 ? this.o.prices?.(specs[0]) : undefined });
    const sink = this.sinks.get(c.kind)!;
    let earlier = 0;
    const stored = this.chunks.collect(c.id, { status: b.status, records: r.records, inputTokens: r.inputTokens, outputTokens: r.outputTokens, cost: r.cost },
      (rec) => {
        const key = memberKey(c.kind, rec);
        const wrote = sink.write(rec, this.byKey.get(key)!);
        if (wrote && this.earlierKeys.has(key)) earlier++;
        return wrote;
      });
    this.stored += stored - earlier;
    this.earlierStored += earlier;
    if (c.kind === 'probe') this.probeTokens += r.inputTokens + r.outputTokens;
    else this.tokens += r.inputTokens + r.outputTokens;
    if (b.cutShort) this.cutShort++;
    this.logger.info(liveBatchMsg.chunkCollected(c.id, b.status, stored, r.pending));
    if (r.unknown + r.duplicate > 0) this.logger.warn(liveBatchMsg.strayAnswers(c.id, b.id, r.unknown, r.duplicate));
    crashPoint('collected');
  }

  /** Poll the created chunks until each is finished (or once, without waiting), collecting as they finish. */
  async poll(wait: boolean): Promise<void> {
    let open = this.open().filter((c) => c.state === 'created');
    let delay = this.o.pollMs;
    const last = new Map<number, string>();
    while (open.length > 0) {
      const next: ChunkRow[] = [];
      for (const c of open) {
        const b = await this.api(this.modelOf(c.model)).retrieve(c.batchId!);
        this.chunks.polled(c.id, b.status, b.completed, b.failed);
        const line = liveBatchMsg.chunkStatus(c.id, b.status, b.completed, b.failed, b.total || c.lines);
        if (last.get(c.id) !== line) { this.logger.info(line); last.set(c.id, line); }
        if (b.terminal) await this.collect(c, b);
        else next.push(c);
      }
      open = next;
      if (!wait || open.length === 0 || this.o.stop?.aborted) break;
      await this.clock.sleep(delay, this.o.stop);
      delay = Math.min(delay * 1.5, Math.max(this.o.pollMs, MAX_POLL_MS));
    }
  }

  openCount(): number {
    return this.open().length;
  }

  /** Send every chunk that is not yet a batch. */
  async submitOpen(): Promise<void> {
    for (const c of this.open()) if (c.state !== 'created') await this.submit(c);
  }
}

/** Run (or resume) the batch part of a run. */
export async function runBatches(o: BatchRunOptions): Promise<BatchSummary> {
  const r = new BatchRun(o);
  r.prepareApis();
  if (r.earlier.length > 0) o.logger?.info(liveBatchMsg.earlierProbes(r.earlier.length, o.specs.some((s) => kindOf(s) === 'probe')));
  // Each trial looked up once here; after a round, only those it left pending (what is stored stays stored).
  const notDone = o.specs.filter((s) => !r.isDone(s));
  const alreadyDone = o.specs.length - notDone.length;
  const open = BatchChunks.open(o.store).inOpenChunks(o.runId);
  const inOpen = o.specs.filter((s) => open.has(batchKey(s))).length;
  // Only an earlier run's probes to collect (a run whose decisions are all stored): their line says so.
  if (o.specs.length > 0) o.logger?.info(liveBatchMsg.plan(o.designName, o.runId, o.specs.length, alreadyDone, inOpen, o.specs.length - alreadyDone - inOpen));
  let left: TrialSpec[] | undefined = notDone.filter((s) => !open.has(batchKey(s)));
  for (let round = 0; round < o.maxRounds; round++) {
    const [stored, cutShort] = [r.stored, r.cutShort];
    r.planNew(left);
    left = undefined;
    await r.submitOpen();
    await r.poll(o.wait);
    if (!o.wait || o.stop?.aborted || r.openCount() > 0) break;
    left = r.pending(notDone);
    // Another round while it helps: something was stored, or a batch ended before answering everything.
    if (left.length === 0 || (r.stored === stored && r.cutShort === cutShort)) break;
  }
  return { total: o.specs.length, alreadyDone, stored: r.stored, earlier: r.earlier.length, earlierStored: r.earlierStored,
    pending: (left ?? r.pending(notDone)).length, open: r.openCount(), created: r.created, tokens: r.tokens, probeTokens: r.probeTokens };
}
