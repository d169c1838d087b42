/**
 * The runner: trials not yet completed in the store are requested under a
 * concurrency limit (AIMD-adaptive on 429s), requests- and tokens-per-minute buckets, and retries
 * with full-jitter backoff that honours Retry-After. Every finished trial — ok, invalid or error —
 * is committed to the store before it counts. A stop signal (first Ctrl-C) ends dispatch and lets
 * the calls in flight finish and be stored; an abort signal (second Ctrl-C) drops them.
 */
import type { Logger } from '../../core/logger.js';
import { silentLogger } from '../../core/logger.js';
import { runMsg } from '../../core/messages/run.js';
import { streamFor } from '../../stats/rng.js';
import { backoffDelay, DEFAULT_BACKOFF, isRetryable, type BackoffSettings } from './backoff.js';
import { realClock, type Clock } from './clock.js';
import { AdaptiveLimit } from './concurrency.js';
import { ConcurrencyNotices } from './notices.js';
import { estimateInputTokens, estimateOutputTokens } from './plan.js';
import { Progress } from './progress.js';
import { TokenBucket } from './rate-limit.js';
import { scoreResponse, type Scored } from '../scoring/score.js';
import type { TrialStore } from '../store/store.js';
import { ProviderError, type ModelSpec, type Provider, type ProviderResponse, type TrialRecord, type TrialSpec } from '../types.js';

export interface RunnerOptions {
  readonly store: TrialStore;
  readonly runId: number;
  readonly specs: readonly TrialSpec[];
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
  /** Told once the store has been consulted: how many trials are already complete and how many will be requested. */
  readonly onStart?: (alreadyDone: number, toRequest: number) => void;
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

const keyOf = (s: TrialSpec) => `${s.model.id}\u0000${s.game}\u0000${s.framing}\u0000${s.rep}`;

/** Parameters of a call that never produced a request record (every attempt failed), without credentials. */
function plannedRequest(s: TrialSpec): string {
  return JSON.stringify({ provider: s.model.provider, model: s.model.model, decoding: s.decoding, scoring: s.scoring });
}

export async function runTrials(o: RunnerOptions): Promise<RunSummary> {
  const clock = o.clock ?? realClock;
  const logger = o.logger ?? silentLogger;
  const maxRetries = o.maxRetries ?? RUNNER_DEFAULTS.maxRetries;
  const score = o.score ?? scoreResponse;
  const stop = o.stop ?? new AbortController().signal;
  const abort = o.abort ?? new AbortController().signal;
  const notices = new ConcurrencyNotices(o.concurrency ?? RUNNER_DEFAULTS.concurrency, clock, logger);
  const change = (from: number, to: number) => notices.change(from, to);
  const limit = new AdaptiveLimit(o.concurrency ?? RUNNER_DEFAULTS.concurrency, change, change);
  const rpm = o.rpm ? new TokenBucket(o.rpm, clock) : undefined;
  const tpm = o.tpm ? new TokenBucket(o.tpm, clock) : undefined;
  const halt = AbortSignal.any([stop, abort]);

  const pending = o.specs.filter((s) => !o.store.isComplete(o.runId, { model: s.model.id, game: s.game, framing: s.framing, rep: s.rep }));
  const alreadyDone = o.specs.length - pending.length;
  o.onStart?.(alreadyDone, pending.length);
  const progress = new Progress(o.specs.length, alreadyDone, clock, logger);
  const counts = { ok: 0, invalid: 0, error: 0, dropped: 0, calls: 0 };

  const base = (s: TrialSpec) => ({
    runId: o.runId, model: s.model.id, game: s.game, framing: s.framing, rep: s.rep, factors: s.factors, prompt: s.prompt,
  });

  /** One trial to its record, or undefined when it was stopped or aborted before finishing. */
  async function attempt(s: TrialSpec): Promise<TrialRecord | undefined> {
    const rng = streamFor(o.seed ?? RUNNER_DEFAULTS.seed, `backoff\u0000${keyOf(s)}`);
    const estimate = estimateInputTokens(s) + estimateOutputTokens(s);
    const provider = o.providers.get(s.model);
    for (let n = 1; ; n++) {
      if (rpm && !(await rpm.take(1, halt))) return undefined;
      if (tpm && !(await tpm.take(estimate, halt))) return undefined;
      if (abort.aborted) return undefined;
      counts.calls++;
      const t0 = clock.now();
      try {
        const res = await provider.complete({ spec: s, signal: abort });
        const latencyMs = clock.now() - t0;
        const used = res.usage ? res.usage.inputTokens + res.usage.outputTokens : estimate;
        tpm?.settle(used - estimate);
        limit.success();
        const sc = score(s, res);
        return {
          ...base(s), request: JSON.stringify(res.request), response: res.raw, text: res.text,
          action: sc.action, pCooperate: sc.pCooperate, scoring: sc.scoring, modelSnapshot: res.modelSnapshot ?? null,
          inputTokens: res.usage?.inputTokens ?? null, outputTokens: res.usage?.outputTokens ?? null, latencyMs,
          status: sc.status, error: sc.reason, attempts: n,
        };
      } catch (e) {
        const pe = e instanceof ProviderError ? e : new ProviderError('client', e instanceof Error ? e.message : String(e));
        if (pe.kind === 'aborted' || abort.aborted) return undefined;
        if (pe.kind === 'rate_limit') limit.rateLimited();
        if (!isRetryable(pe.kind) || n > maxRetries) {
          return {
            ...base(s), request: plannedRequest(s), response: pe.raw ?? null, text: null, action: null, pCooperate: null,
            scoring: null, modelSnapshot: null, inputTokens: null, outputTokens: null, latencyMs: clock.now() - t0,
            status: 'error', error: `${pe.kind}${pe.status ? ` ${pe.status}` : ''}: ${pe.message} (after ${n} attempt${n > 1 ? 's' : ''})`, attempts: n,
          };
        }
        await clock.sleep(backoffDelay(n, rng, o.backoff ?? DEFAULT_BACKOFF, pe.retryAfterMs), halt);
        if (halt.aborted) return undefined;
      }
    }
  }

  const running = new Set<Promise<void>>();
  for (const s of pending) {
    await limit.acquire();
    if (halt.aborted) { limit.release(); break; }
    const p = attempt(s).then((rec) => {
      if (rec === undefined) { counts.dropped++; return; }
      o.store.write(rec); // committed before it counts
      counts[rec.status]++;
      progress.tick(rec.status === 'error', (rec.inputTokens ?? 0) + (rec.outputTokens ?? 0));
    }).finally(() => { limit.release(); running.delete(p); });
    running.add(p);
  }
  await Promise.all(running);
  notices.finish();
  if (counts.error > 0) logger.warn(runMsg.errorsRecorded(counts.error));
  const finished = alreadyDone + counts.ok + counts.invalid + counts.error;
  return {
    total: o.specs.length, alreadyDone, ...counts, tokens: progress.tokens,
    outcome: abort.aborted ? 'aborted' : stop.aborted && finished < o.specs.length ? 'interrupted' : 'complete',
  };
}
