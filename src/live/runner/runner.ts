/**
 * The runner: trials not yet completed in the store are requested under a
 * concurrency limit (AIMD-adaptive on 429s), requests- and tokens-per-minute buckets, and retries
 * with full-jitter backoff that honours Retry-After. Every finished trial — ok, invalid or error —
 * is committed to the store before it counts. A stop signal (first Ctrl-C) ends dispatch and lets
 * the calls in flight finish and be stored; an abort signal (second Ctrl-C) drops them at once,
 * whether or not the provider honours its signal, and what they answer later is never stored.
 * Every response goes through one check (response.ts) before it is scored or stored, and a call
 * is ended by the runner's own timer (`timeoutMs`) even when the provider never settles.
 */
import type { Logger } from '../../core/logger.js';
import { silentLogger } from '../../core/logger.js';
import { runMsg } from '../../core/messages/run.js';
import { streamFor } from '../../stats/rng.js';
import { backoffDelay, DEFAULT_BACKOFF, DEFAULT_MAX_HINT_MS, isRetryable, MAX_WAIT_MS, retryHint, type BackoffSettings } from './backoff.js';
import { realClock, type Clock } from './clock.js';
import { AdaptiveLimit } from './concurrency.js';
import { ConcurrencyNotices } from './notices.js';
import { estimateInputTokens, estimateOutputTokens } from './plan.js';
import { Progress } from './progress.js';
import { checkResponse, ContractError } from '../providers/response.js';
import { UserError } from '../../core/errors.js';
import { isPluginSpec } from '../providers/plugin-spec.js';
import { onAbort } from '../abort.js';
import { TokenBucket } from './rate-limit.js';
import { scoreResponse, type Scored } from '../scoring/score.js';
import type { TrialStore } from '../store/store.js';
import { ProviderError, type ModelSpec, type Provider, type ProviderResponse, type TrialRecord, type TrialSpec } from '../types.js';
import { runnerMsg } from './messages.js';

/** What every call of a run shares (the one-shot runner and the repeated-game engine, src/live/repeated/). */
export interface CallOptions {
  readonly store: TrialStore;
  readonly runId: number;
  readonly providers: { get(model: ModelSpec): Provider };
  readonly concurrency?: number;
  readonly rpm?: number;
  readonly tpm?: number;
  /** Retries after the first attempt (so maxRetries + 1 calls at most per trial). */
  readonly maxRetries?: number;
  /** Seed of the backoff jitter streams (one stream per trial key). */
  readonly seed?: number;
  readonly backoff?: BackoffSettings;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Soft stop: dispatch no more, finish and store what is in flight. */
  readonly stop?: AbortSignal;
  /** Hard stop: abort the calls in flight; they are not stored. */
  readonly abort?: AbortSignal;
  readonly score?: (spec: TrialSpec, res: ProviderResponse) => Scored;
  /**
   * Per-call limit (--timeout-ms): a call not settled TIMEOUT_GRACE_MS after it is failed as
   * `timeout` and its signal aborted, whether or not the provider honours the signal. None when absent.
   */
  readonly timeoutMs?: number;
  /** The longest wait a retry hint may ask for (default DEFAULT_MAX_HINT_MS); a longer one is ignored with a warning. */
  readonly maxWaitMs?: number;
}

export interface RunnerOptions extends CallOptions {
  readonly specs: readonly TrialSpec[];
  /** Told once the store has been consulted: how many trials are already complete and how many will be requested. */
  readonly onStart?: (alreadyDone: number, toRequest: number) => void;
  /** Where finished trials go (default: the store's trials); comprehension probes keep a table of their own (src/live/probes/). */
  readonly sink?: TrialSink;
}

/** What the runner asks of the place its trials go: whether one is complete, and to commit one. */
export interface TrialSink {
  isComplete(s: TrialSpec): boolean;
  write(rec: TrialRecord, s: TrialSpec): void;
}

export interface RunSummary {
  readonly total: number;
  /** Completed trials found in the store at the start (not requested again). */
  readonly alreadyDone: number;
  /** Trials stored by this session, by status. */
  readonly ok: number;
  readonly invalid: number;
  readonly error: number;
  /** Trials left unfinished (stopped during backoff, or aborted in flight). */
  readonly dropped: number;
  readonly calls: number;
  readonly tokens: number;
  readonly outcome: 'complete' | 'interrupted' | 'aborted';
}

export const RUNNER_DEFAULTS = { concurrency: 4, maxRetries: 5, seed: 0 } as const;

/** Time a provider has past --timeout-ms to end a call itself (its own timer, its own message) before the runner ends it. */
export const TIMEOUT_GRACE_MS = 500;

const keyOf = (s: TrialSpec) => `${s.model.id}\u0000${s.game}\u0000${s.framing}\u0000${s.rep}`;

/** Parameters of a call that never produced a request record (every attempt failed), without credentials. */
export function plannedRequest(s: TrialSpec): string {
  return JSON.stringify({ provider: s.model.provider, model: s.model.model, decoding: s.decoding, scoring: s.scoring });
}

/** What one run shares across its trials: settings with defaults, limits, signals and tallies. */
export interface RunContext {
  readonly o: CallOptions;
  readonly clock: Clock;
  readonly maxRetries: number;
  readonly score: (spec: TrialSpec, res: ProviderResponse) => Scored;
  readonly stop: AbortSignal;
  readonly abort: AbortSignal;
  /** Either stop: no more waiting, no more dispatch. */
  readonly halt: AbortSignal;
  readonly limit: AdaptiveLimit;
  /** Concurrency changes, printed at most once per interval and counted at the end. */
  readonly notices: ConcurrencyNotices;
  readonly rpm?: TokenBucket;
  readonly tpm?: TokenBucket;
  readonly counts: { ok: number; invalid: number; error: number; dropped: number; calls: number };
  readonly logger: Logger;
  /**
   * What a run reports once: the first contract break of a provider (the run stops dispatching and ends with it, endRun), and whether a retry hint above the
   * ceiling was warned.
   */
  readonly once: { broken?: UserError; hintWarned?: boolean };
  readonly brake: AbortController;
}

export function runContext(o: CallOptions, logger: Logger): RunContext {
  const clock = o.clock ?? realClock;
  const stop = o.stop ?? new AbortController().signal;
  const abort = o.abort ?? new AbortController().signal;
  const notices = new ConcurrencyNotices(o.concurrency ?? RUNNER_DEFAULTS.concurrency, clock, logger);
  const change = (from: number, to: number) => notices.change(from, to);
  const brake = new AbortController();
  return {
    o, clock, stop, abort, halt: AbortSignal.any([stop, abort, brake.signal]), notices, logger, brake, once: {},
    maxRetries: o.maxRetries ?? RUNNER_DEFAULTS.maxRetries,
    score: o.score ?? scoreResponse,
    limit: new AdaptiveLimit(o.concurrency ?? RUNNER_DEFAULTS.concurrency, change, change),
    ...(o.rpm ? { rpm: new TokenBucket(o.rpm, clock) } : {}),
    ...(o.tpm ? { tpm: new TokenBucket(o.tpm, clock) } : {}),
    counts: { ok: 0, invalid: 0, error: 0, dropped: 0, calls: 0 },
  };
}

const baseRecord = (c: RunContext, s: TrialSpec) => ({
  runId: c.o.runId, model: s.model.id, game: s.game, framing: s.framing, rep: s.rep, factors: s.factors, prompt: s.prompt,
  ...(s.play === undefined ? {} : { play: s.play }),
});

function okRecord(c: RunContext, s: TrialSpec, res: ProviderResponse, latencyMs: number, n: number): TrialRecord {
  const sc = c.score(s, res);
  return {
    ...baseRecord(c, s), request: JSON.stringify(res.request), response: res.raw, text: res.text,
    action: sc.action, pCooperate: sc.pCooperate, scoring: sc.scoring, modelSnapshot: res.modelSnapshot ?? null,
    inputTokens: res.usage?.inputTokens ?? null, outputTokens: res.usage?.outputTokens ?? null, latencyMs,
    status: sc.status, error: sc.reason, attempts: n,
  };
}

function errorRecord(c: RunContext, s: TrialSpec, pe: ProviderError, latencyMs: number, n: number): TrialRecord {
  return {
    ...baseRecord(c, s), request: plannedRequest(s), response: pe.raw ?? null, text: null, action: null, pCooperate: null,
    scoring: null, modelSnapshot: null, inputTokens: null, outputTokens: null, latencyMs,
    status: 'error', error: `${pe.kind}${pe.status ? ` ${pe.status}` : ''}: ${pe.message} (after ${n} attempt${n > 1 ? 's' : ''})`, attempts: n,
  };
}

/**
 * One call to the provider, settled by the first of: its answer (or error), the run's abort
 * (`aborted`), or the runner's timer (`timeout`). The provider gets a signal of its own, aborted
 * on either; an answer that arrives after is dropped.
 */
function call(c: RunContext, provider: Provider, s: TrialSpec): Promise<unknown> {
  const ctl = new AbortController();
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let unlink = () => {};
    const end = (f: () => void) => { clearTimeout(timer); unlink(); f(); };
    const cut = (e: ProviderError) => end(() => { reject(e); ctl.abort(); });
    unlink = onAbort(c.abort, () => cut(new ProviderError('aborted', 'the run was aborted')));
    if (c.o.timeoutMs !== undefined) {
      const ms = Math.min(c.o.timeoutMs + TIMEOUT_GRACE_MS, MAX_WAIT_MS);
      timer = setTimeout(() => cut(new ProviderError('timeout', runnerMsg.callTimedOut(c.o.timeoutMs!))), ms);
    }
    let answer: Promise<unknown>;
    try {
      answer = Promise.resolve(provider.complete({ spec: s, signal: ctl.signal }));
    } catch (e) {
      answer = Promise.reject(e);
    }
    answer.then((v) => end(() => resolve(v)), (e: unknown) => end(() => reject(e)));
  });
}

/** A provider broke its contract: remembered (the first), and no more dispatch; what is stored stays. */
function breakRun(c: RunContext, s: TrialSpec, e: ContractError): undefined {
  c.once.broken ??= new UserError(runnerMsg.contractBroken(s.model.provider, isPluginSpec(s.model.provider), s.model.id, e.what));
  c.brake.abort();
  return undefined;
}

/** The wait a failed attempt's retry hint asks for, within the ceiling; a longer hint is ignored with a warning (the first of a run). */
function hintOf(c: RunContext, v: unknown): number | undefined {
  const ceiling = c.o.maxWaitMs ?? DEFAULT_MAX_HINT_MS;
  const h = retryHint(v, ceiling);
  if (h.tooLong !== undefined && !c.once.hintWarned) { c.once.hintWarned = true; c.logger.warn(runnerMsg.hintTooLong(h.tooLong, ceiling)); }
  return h.ms;
}

/** After a run: the contract break that stopped it, as one line (exit 2); the trials stored are kept. */
export function endRun(c: RunContext): void {
  if (c.once.broken) throw c.once.broken;
}

/** One trial to its record, or undefined when it was stopped or aborted before finishing. */
export async function attempt(c: RunContext, s: TrialSpec): Promise<TrialRecord | undefined> {
  const rng = streamFor(c.o.seed ?? RUNNER_DEFAULTS.seed, `backoff\u0000${keyOf(s)}`);
  const estimate = estimateInputTokens(s) + estimateOutputTokens(s);
  const provider = c.o.providers.get(s.model);
  for (let n = 1; ; n++) {
    if (c.rpm && !(await c.rpm.take(1, c.halt))) return undefined;
    if (c.tpm && !(await c.tpm.take(estimate, c.halt))) return undefined;
    if (c.abort.aborted) return undefined;
    c.counts.calls++;
    const t0 = c.clock.now();
    try {
      const res = checkResponse(await call(c, provider, s));
      const latencyMs = c.clock.now() - t0;
      c.tpm?.settle((res.usage ? res.usage.inputTokens + res.usage.outputTokens : estimate) - estimate);
      c.limit.success();
      return okRecord(c, s, res, latencyMs, n);
    } catch (e) {
      if (e instanceof ContractError) return breakRun(c, s, e);
      const pe = e instanceof ProviderError ? e : new ProviderError('client', e instanceof Error ? e.message : String(e));
      if (pe.kind === 'aborted' || c.abort.aborted) return undefined;
      if (pe.kind === 'rate_limit') c.limit.rateLimited();
      if (!isRetryable(pe.kind) || n > c.maxRetries) return errorRecord(c, s, pe, c.clock.now() - t0, n);
      await c.clock.sleep(backoffDelay(n, rng, c.o.backoff ?? DEFAULT_BACKOFF, hintOf(c, pe.retryAfterMs)), c.halt);
      if (c.halt.aborted) return undefined;
    }
  }
}

export async function runTrials(o: RunnerOptions): Promise<RunSummary> {
  const logger = o.logger ?? silentLogger;
  const c = runContext(o, logger);
  const sink: TrialSink = o.sink ?? {
    isComplete: (s) => o.store.isComplete(o.runId, { model: s.model.id, game: s.game, framing: s.framing, rep: s.rep }),
    write: (rec) => o.store.write(rec),
  };
  const pending = o.specs.filter((s) => !sink.isComplete(s));
  const alreadyDone = o.specs.length - pending.length;
  o.onStart?.(alreadyDone, pending.length);
  const progress = new Progress(o.specs.length, alreadyDone, c.clock, logger);
  const running = new Set<Promise<void>>();
  for (const s of pending) {
    await c.limit.acquire();
    if (c.halt.aborted) { c.limit.release(); break; }
    const p = attempt(c, s).then((rec) => {
      if (rec === undefined) { c.counts.dropped++; return; }
      sink.write(rec, s); // committed before it counts
      c.counts[rec.status]++;
      progress.tick(rec.status === 'error', (rec.inputTokens ?? 0) + (rec.outputTokens ?? 0));
    }).finally(() => { c.limit.release(); running.delete(p); });
    running.add(p);
  }
  await Promise.all(running);
  c.notices.finish();
  endRun(c);
  if (c.counts.error > 0) logger.warn(runMsg.errorsRecorded(c.counts.error));
  const finished = alreadyDone + c.counts.ok + c.counts.invalid + c.counts.error;
  return {
    total: o.specs.length, alreadyDone, ...c.counts, tokens: progress.tokens,
    outcome: c.abort.aborted ? 'aborted' : c.stop.aborted && finished < o.specs.length ? 'interrupted' : 'complete',
  };
}
