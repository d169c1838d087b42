/**
 * Providers by id (the promptfoo convention): a design names a provider per model; the registry
 * builds one instance per (provider, base URL, key variable) and reads the key from the
 * environment variable the model names. The key lives only inside the SDK client: it is never
 * part of a request record, a stored response, an error message or a log line.
 *
 * The built-in providers are one Record keyed by the union of their ids: the design schema's list,
 * the --provider help text and the batch-capable set are all read from it. A design may also name
 * a plug-in module (see plugins.ts); the pool takes the loaded plug-ins' factories.
 */
import type { ModelSpec, Provider } from '../types.js';
import { UserError } from '../../core/errors.js';
import { createOpenAIResponsesProvider } from './openai-responses.js';
import { createOpenAIChatProvider } from './openai-chat.js';
import { createSimulatedProvider } from './simulated.js';
import { createAnthropicProvider } from './anthropic.js';
import { createGeminiProvider } from './gemini.js';
import { providersMsg } from './messages.js';

export const DEFAULT_KEY_ENV = 'OPENAI_API_KEY';
export const DEFAULT_TIMEOUT_MS = 60_000;
const ANTHROPIC_KEY_ENV = ['ANTHROPIC_API_KEY'] as const;
const GEMINI_KEY_ENV = ['GEMINI_API_KEY', 'GOOGLE_API_KEY'] as const;

export interface ProviderSettings {
  /** Per-call limit, covering the whole response body. */
  readonly timeoutMs?: number;
  /** Where keys are read from (process.env by default; tests pass their own). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
}

/** What a provider factory receives: the settings with the timeout and environment filled in. */
export type ResolvedProviderSettings = Required<Pick<ProviderSettings, 'timeoutMs' | 'env'>> & ProviderSettings;
export type ProviderFactory = (model: ModelSpec, s: ResolvedProviderSettings) => Provider;

/** The ids of the built-in providers. */
export type BuiltinProviderId = 'openai-responses' | 'openai-chat' | 'anthropic' | 'gemini' | 'simulated';

/** The vendors whose batch services run `run --batch` (src/live/batch/vendors.ts). */
export type BatchVendorId = 'openai' | 'anthropic' | 'gemini';

export interface BuiltinProvider {
  readonly create: ProviderFactory;
  /** The batch service its requests can go through, when it has one. */
  readonly batch?: BatchVendorId;
  /** Whether it returns first-token log-probabilities (`scoring: logprobs`). */
  readonly logprobs: boolean;
  /** Whether a design's `decoding.seed` is sent. */
  readonly seed: boolean;
  /** The highest temperature its API accepts, when lower than a design may give (2). */
  readonly maxTemperature?: number;
  /** The variables read for the key when a model names none, in order. */
  readonly keyEnv: readonly string[];
}

/**
 * The key for a model. A compatible local server (openai-chat with a base URL and no key variable
 * named) may need none; everything else must have one, checked before the first call.
 */
export function keyFor(model: ModelSpec, env: Readonly<Record<string, string | undefined>>, optional: boolean,
  defaults: readonly string[] = [DEFAULT_KEY_ENV]): string {
  const names = model.apiKeyEnv === undefined ? defaults : [model.apiKeyEnv];
  for (const name of names) {
    const key = env[name];
    if (key !== undefined && key !== '') return key;
  }
  if (optional && model.apiKeyEnv === undefined) return 'no-key';
  throw new UserError(providersMsg.missingKey(model.id, names.join(' or ')));
}

/** The key of a model of a built-in provider, read from the variables its provider names by default. */
export function modelKey(model: ModelSpec, env: Readonly<Record<string, string | undefined>>): string {
  const defaults = isBuiltinProvider(model.provider) ? BUILTIN_PROVIDERS[model.provider].keyEnv : [DEFAULT_KEY_ENV];
  return keyFor(model, env, keyOptional(model), defaults);
}

/** Whether a model's key may be absent (a compatible local server reached through openai-chat). */
export const keyOptional = (m: ModelSpec): boolean => m.provider === 'openai-chat' && m.baseUrl !== undefined;

export const BUILTIN_PROVIDERS: Readonly<Record<BuiltinProviderId, BuiltinProvider>> = {
  'openai-responses': {
    batch: 'openai', logprobs: true, seed: false, keyEnv: [DEFAULT_KEY_ENV],
    create: (m, s) => createOpenAIResponsesProvider({
      apiKey: keyFor(m, s.env, keyOptional(m)), baseURL: m.baseUrl, timeoutMs: s.timeoutMs, fetch: s.fetch, now: s.now,
    }),
  },
  'openai-chat': {
    batch: 'openai', logprobs: true, seed: true, keyEnv: [DEFAULT_KEY_ENV],
    create: (m, s) => createOpenAIChatProvider({
      apiKey: keyFor(m, s.env, keyOptional(m)), baseURL: m.baseUrl, timeoutMs: s.timeoutMs, fetch: s.fetch, now: s.now,
    }),
  },
  anthropic: {
    batch: 'anthropic', logprobs: false, seed: false, maxTemperature: 1, keyEnv: ANTHROPIC_KEY_ENV,
    create: (m, s) => createAnthropicProvider({
      apiKey: modelKey(m, s.env), baseURL: m.baseUrl, timeoutMs: s.timeoutMs, fetch: s.fetch, now: s.now,
    }),
  },
  gemini: {
    batch: 'gemini', logprobs: true, seed: true, keyEnv: GEMINI_KEY_ENV,
    create: (m, s) => createGeminiProvider({
      apiKey: modelKey(m, s.env), baseURL: m.baseUrl, timeoutMs: s.timeoutMs, fetch: s.fetch, now: s.now,
    }),
  },
  simulated: { logprobs: true, seed: true, keyEnv: [], create: () => createSimulatedProvider() },
};

/** The built-in ids, sorted (the design schema's list and the help text). */
export const BUILTIN_PROVIDER_IDS = Object.keys(BUILTIN_PROVIDERS).sort() as BuiltinProviderId[];

export function isBuiltinProvider(id: string): id is BuiltinProviderId {
  return Object.hasOwn(BUILTIN_PROVIDERS, id);
}

export function providerIds(): string[] {
  return [...BUILTIN_PROVIDER_IDS];
}

export function isSimulated(model: ModelSpec): boolean {
  return model.provider === 'simulated';
}

/** Providers for a set of models, built once each; unknown ids and missing keys fail here, before any call. */
export class ProviderPool {
  private readonly byKey = new Map<string, Provider>();
  /**
   * @param plugins factories of plug-in modules by the provider spec a design names
   *   (loaded and validated by loadPlugins before the pool is made).
   */
  constructor(private readonly settings: ProviderSettings = {},
    private readonly plugins: ReadonlyMap<string, ProviderFactory> = new Map()) {}

  /** Build (or reuse) the provider of every model; throws UserError for an unknown id or a missing key. */
  prepare(models: Iterable<ModelSpec>): void {
    for (const m of models) this.get(m);
  }

  get(model: ModelSpec): Provider {
    // A plug-in's createProvider is called once per model, as documented (its instance may hold
    // the model's own settings); a built-in's instance serves every model of one server and key.
    const k = isBuiltinProvider(model.provider)
      ? `${model.provider}\u0000${model.baseUrl ?? ''}\u0000${model.apiKeyEnv ?? ''}`
      : `plugin\u0000${model.provider}\u0000${model.id}`;
    let p = this.byKey.get(k);
    if (!p) {
      const f = isBuiltinProvider(model.provider) ? BUILTIN_PROVIDERS[model.provider].create : this.plugins.get(model.provider);
      if (!f) throw new UserError(providersMsg.unknownProvider(model.provider, providerIds()));
      p = f(model, { ...this.settings, timeoutMs: this.settings.timeoutMs ?? DEFAULT_TIMEOUT_MS, env: this.settings.env ?? process.env });
      this.byKey.set(k, p);
    }
    return p;
  }
}
