/**
 * Providers by id (the promptfoo convention): a design names a provider per model; the registry
 * builds one instance per (provider, base URL, key variable) and reads the key from the
 * environment variable the model names. The key lives only inside the SDK client: it is never
 * part of a request record, a stored response, an error message or a log line.
 */
import type { ModelSpec, Provider } from '../types.js';
import { UserError } from '../../core/errors.js';
import { runMsg } from '../../core/messages/run.js';
import { createOpenAIResponsesProvider } from './openai-responses.js';
import { createOpenAIChatProvider } from './openai-chat.js';
import { createSimulatedProvider } from './simulated.js';

export const DEFAULT_KEY_ENV = 'OPENAI_API_KEY';
export const DEFAULT_TIMEOUT_MS = 60_000;

export interface ProviderSettings {
  /** Per-call limit, covering the whole response body. */
  readonly timeoutMs?: number;
  /** Where keys are read from (process.env by default; tests pass their own). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
}

type Factory = (model: ModelSpec, s: Required<Pick<ProviderSettings, 'timeoutMs' | 'env'>> & ProviderSettings) => Provider;

/**
 * The key for a model. A compatible local server (openai-chat with a base URL and no key variable
 * named) may need none; everything else must have one, checked before the first call.
 */
function keyFor(model: ModelSpec, env: Readonly<Record<string, string | undefined>>, optional: boolean): string {
  const name = model.apiKeyEnv ?? DEFAULT_KEY_ENV;
  const key = env[name];
  if (key !== undefined && key !== '') return key;
  if (optional && model.apiKeyEnv === undefined) return 'no-key';
  throw new UserError(runMsg.missingKey(model.id, name));
}

const FACTORIES: Readonly<Record<string, Factory>> = {
  'openai-responses': (m, s) => createOpenAIResponsesProvider({
    apiKey: keyFor(m, s.env, false), baseURL: m.baseUrl, timeoutMs: s.timeoutMs, fetch: s.fetch, now: s.now,
  }),
  'openai-chat': (m, s) => createOpenAIChatProvider({
    apiKey: keyFor(m, s.env, m.baseUrl !== undefined), baseURL: m.baseUrl, timeoutMs: s.timeoutMs, fetch: s.fetch, now: s.now,
  }),
  simulated: () => createSimulatedProvider(),
};

export function providerIds(): string[] {
  return Object.keys(FACTORIES).sort();
}

export function isSimulated(model: ModelSpec): boolean {
  return model.provider === 'simulated';
}

/** Providers for a set of models, built once each; unknown ids and missing keys fail here, before any call. */
export class ProviderPool {
  private readonly byKey = new Map<string, Provider>();
  constructor(private readonly settings: ProviderSettings = {}) {}

  /** Build (or reuse) the provider of every model; throws UserError for an unknown id or a missing key. */
  prepare(models: Iterable<ModelSpec>): void {
    for (const m of models) this.get(m);
  }

  get(model: ModelSpec): Provider {
    const k = `${model.provider}\u0000${model.baseUrl ?? ''}\u0000${model.apiKeyEnv ?? ''}`;
    let p = this.byKey.get(k);
    if (!p) {
      const f = Object.hasOwn(FACTORIES, model.provider) ? FACTORIES[model.provider] : undefined;
      if (!f) throw new UserError(runMsg.unknownProvider(model.provider, providerIds()));
      p = f(model, { ...this.settings, timeoutMs: this.settings.timeoutMs ?? DEFAULT_TIMEOUT_MS, env: this.settings.env ?? process.env });
      this.byKey.set(k, p);
    }
    return p;
  }
}
