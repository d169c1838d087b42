/**
 * The contract between the parts of the live-run module (src/live/):
 *   design (YAML, validated) → expandDesign → TrialSpec[] → runner → Provider → parse → trial store.
 * Designs and prompt families produce TrialSpecs; providers answer ProviderRequests; the runner
 * stores TrialRecords. Each part depends only on these types, not on the others' internals.
 */

import type { Action, Game } from '../core/games.js';
export type { Action, Game } from '../core/games.js';

/** Decoding settings of a model in a design. */
export interface Decoding {
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly seed?: number;
  readonly topLogprobs?: number;
  readonly reasoningEffort?: string;
}

export type Scoring = 'sample' | 'logprobs';

/**
 * Where a decision of a repeated game sits (src/live/repeated/): the opponent as tables name it
 * (a strategy id, the other model's id, or the model's own id against itself), the match (1-based,
 * unique in the run, shared by both seats), the round (1-based) and the seat (1 or 2). A fixed
 * strategy's move of the same round is known when the round is asked, and is kept with it.
 */
export interface PlayKey {
  readonly opponent: string;
  readonly match: number;
  readonly round: number;
  readonly seat: 1 | 2;
  readonly opponentMove: Action | null;
}

export interface ModelSpec {
  /** The name used in tables (e.g. "gpt-4o-mini" or "Sim-A"). */
  readonly id: string;
  /** Provider id: 'openai-responses' | 'openai-chat' | 'simulated' | … */
  readonly provider: string;
  /** The model name sent to the provider (defaults to id). */
  readonly model: string;
  readonly baseUrl?: string;
  /** Name of the environment variable holding the API key (never the key itself). */
  readonly apiKeyEnv?: string;
  /** Provider-specific options (simulated agent parameters, extra body fields …). */
  readonly options: Readonly<Record<string, unknown>>;
}

/**
 * One planned trial. Its key (model, game, framing, rep) is unique within a run; `factors` holds
 * any further factor levels of richer designs (condition, world, format …) and is part of the
 * cell identity but not of the key (the key's `framing` is already unique per factor combination).
 */
export interface TrialSpec {
  readonly model: ModelSpec;
  readonly game: string;
  readonly framing: string;
  readonly rep: number;
  readonly factors: Readonly<Record<string, string>>;
  readonly system?: string;
  readonly prompt: string;
  /** Surface label → canonical action, e.g. { J: 'C', F: 'D' } or { TRANSFER: 'C', RETAIN: 'D' }. */
  readonly labels: Readonly<Record<string, Action>>;
  /** The two action words in canonical order [C-word, D-word], for first-token scoring. */
  readonly actionWords: readonly [string, string];
  readonly decoding: Decoding;
  readonly scoring: Scoring;
  /** What the simulated provider needs to answer without reading the prompt (in a repeated game: the other's last move). */
  readonly context: {
    readonly game?: Game; readonly framing: string; readonly factors: Readonly<Record<string, string>>;
    readonly otherLast?: Action;
    /** A comprehension probe (src/live/probes/): the question (outcome XY, whose points) and the game's answer. */
    readonly probe?: { readonly outcome: string; readonly player: 'you' | 'other'; readonly expected: number };
  };
  /** Present for a decision of a repeated game; part of the trial's key (the rep encodes it, src/live/repeated/plan.ts). */
  readonly play?: PlayKey;
}

export interface TopLogprob {
  readonly token: string;
  readonly logprob: number;
}

export interface ProviderRequest {
  readonly spec: TrialSpec;
  readonly signal: AbortSignal;
}

export interface ProviderResponse {
  readonly text: string;
  /** Top-k alternatives at the first output position, when the provider returned logprobs. */
  readonly firstTokenTopLogprobs?: readonly TopLogprob[];
  /** The model snapshot the API says answered (e.g. "gpt-4o-mini-2024-07-18"). */
  readonly modelSnapshot?: string;
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
  /** The response body as received (stored verbatim, never containing the key). */
  readonly raw: string;
  /** The request parameters as sent, without credentials. */
  readonly request: Readonly<Record<string, unknown>>;
}

export type ProviderErrorKind = 'rate_limit' | 'server' | 'timeout' | 'network' | 'malformed' | 'client' | 'aborted';

/** A failed call; retryable kinds are rate_limit, server, timeout, network and malformed. */
export class ProviderError extends Error {
  constructor(readonly kind: ProviderErrorKind, message: string,
    readonly status?: number, readonly retryAfterMs?: number, readonly raw?: string) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface Provider {
  readonly id: string;
  complete(req: ProviderRequest): Promise<ProviderResponse>;
}

export type TrialStatus = 'ok' | 'invalid' | 'error';

/** One stored trial (a row of the trials table). */
export interface TrialRecord {
  readonly runId: number;
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly rep: number;
  readonly factors: Readonly<Record<string, string>>;
  readonly prompt: string;
  readonly request: string;
  readonly response: string | null;
  readonly text: string | null;
  /** Canonical action, null when invalid or failed. */
  readonly action: Action | null;
  /** Probability of C from first-token scoring (logprobs), null otherwise. */
  readonly pCooperate: number | null;
  /** Scoring details: imputation flag, t, r, unreturned mass (JSON). */
  readonly scoring: string | null;
  readonly modelSnapshot: string | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly latencyMs: number | null;
  readonly status: TrialStatus;
  readonly error: string | null;
  readonly attempts: number;
  /** Present for a decision of a repeated game. */
  readonly play?: PlayKey;
}
