/**
 * What replay re-renders and re-reads per provider, without a key or a call: the request record a
 * trial stores (from its spec) and the reading of a stored raw response (today's reader). A provider
 * absent here is reported as not re-rendered (or not re-read), never as agreeing.
 */
import { readWire, wireRequest } from '../providers/openai-wire.js';
import { simulatedRequest } from '../providers/simulated.js';
import type { ProviderResponse, TopLogprob, TrialSpec } from '../types.js';

type Read = Omit<ProviderResponse, 'raw' | 'request'>;

export interface ProviderReplay {
  /** The request record a call of this spec stores (JSON.stringify of it is the stored text). */
  readonly request: (spec: TrialSpec) => unknown;
  /** Today's reading of a stored raw response (throws on a body today's reader refuses). */
  readonly read: (raw: string) => Read;
}

/** The simulated provider's raw answer: its text and first-token alternatives. */
function readSimulated(raw: string): Read {
  const j = JSON.parse(raw) as { text?: unknown; top_logprobs?: TopLogprob[] };
  if (typeof j.text !== 'string') throw new Error('no "text" in the simulated answer');
  return { text: j.text, ...(j.top_logprobs ? { firstTokenTopLogprobs: j.top_logprobs } : {}) };
}

export const PROVIDER_REPLAYS: Readonly<Record<string, ProviderReplay>> = {
  'openai-chat': { request: (s) => wireRequest(s, 'openai-chat', s.model.baseUrl).record, read: (raw) => readWire('openai-chat', JSON.parse(raw), raw) },
  'openai-responses': {
    request: (s) => wireRequest(s, 'openai-responses', s.model.baseUrl).record, read: (raw) => readWire('openai-responses', JSON.parse(raw), raw),
  },
  simulated: { request: simulatedRequest, read: readSimulated },
};
