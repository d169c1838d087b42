/**
 * Provider plug-ins: a design's `provider:` may name a module (a path relative to the design, or a
 * package) exporting `createProvider(model, settings)` that returns a Provider (src/live/types.ts).
 * Each module is loaded once and validated before anything is stored: a module that cannot be
 * found or loaded, one without createProvider, one whose createProvider throws or returns
 * something else all fail with one line naming the design file, the model and the module.
 */
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { UserError } from '../../core/errors.js';
import { pluginMsg } from './messages.js';
import type { ModelSpec, Provider } from '../types.js';
import { isBuiltinProvider, providerIds, type ProviderFactory, type ResolvedProviderSettings } from './registry.js';
import { isPathSpec, isPluginSpec } from './plugin-spec.js';
import { providersMsg } from './messages.js';

/** What a plug-in module exports. */
export interface ProviderModule {
  createProvider(model: ModelSpec, settings: ResolvedProviderSettings): Provider;
}

const reason = (e: unknown) => (e instanceof Error ? e.message.split('\n')[0] : String(e));

/** The URL or specifier to import for a plug-in spec named in `designFile`, or a UserError. */
function locate(spec: string, designFile: string, fail: (what: string) => UserError): string {
  if (isPathSpec(spec)) {
    const abs = resolve(dirname(designFile), spec);
    if (!existsSync(abs)) throw fail(pluginMsg.notFound(abs));
    return pathToFileURL(abs).href;
  }
  try {
    return pathToFileURL(createRequire(resolve(designFile)).resolve(spec)).href;
  } catch {
    return spec; // ESM-only packages: let import() resolve them (from samegame's own folder)
  }
}

async function importModule(spec: string, designFile: string, model: string): Promise<Record<string, unknown>> {
  const fail = (what: string) => new UserError(pluginMsg.problem(designFile, model, spec, what));
  const target = locate(spec, designFile, fail);
  try {
    return await import(target) as Record<string, unknown>;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw fail(code === 'ERR_MODULE_NOT_FOUND' && !isPathSpec(spec) ? pluginMsg.notFound(spec) : pluginMsg.loadFailed(reason(e)));
  }
}

function shapeOf(p: unknown): string | undefined {
  if (p === null || typeof p !== 'object') return p === undefined ? 'undefined' : typeof p;
  if (typeof (p as { then?: unknown }).then === 'function') return 'a Promise (return the provider itself)';
  const o = p as Partial<Provider>;
  if (typeof o.id !== 'string') return 'an object without a string "id"';
  if (typeof o.complete !== 'function') return 'an object without a function "complete"';
  return undefined;
}

/** A factory that calls the module's createProvider and checks what it returns. */
function guarded(mod: ProviderModule, spec: string, designFile: string): ProviderFactory {
  return (model, settings) => {
    let p: unknown;
    try {
      p = mod.createProvider(model, settings);
    } catch (e) {
      if (e instanceof UserError) throw e;
      throw new UserError(pluginMsg.problem(designFile, model.id, spec, pluginMsg.threw(reason(e))));
    }
    const bad = shapeOf(p);
    if (bad !== undefined) throw new UserError(pluginMsg.problem(designFile, model.id, spec, pluginMsg.badShape(bad)));
    return p as Provider;
  };
}

/**
 * Load the plug-in modules the models name (each once), keyed by the spec as written.
 * Built-in ids are skipped. Throws UserError naming `designFile` and the first model that names
 * a module that is missing, fails to load or has no createProvider.
 */
export async function loadPlugins(models: readonly ModelSpec[], designFile: string): Promise<Map<string, ProviderFactory>> {
  const out = new Map<string, ProviderFactory>();
  for (const m of models) {
    if (isBuiltinProvider(m.provider) || out.has(m.provider)) continue;
    // Only a --provider flag gets here with a name that is neither (the design schema refuses it).
    if (!isPluginSpec(m.provider)) throw new UserError(providersMsg.unknownProvider(m.provider, providerIds()));
    const mod = await importModule(m.provider, designFile, m.id);
    if (typeof mod.createProvider !== 'function') {
      throw new UserError(pluginMsg.problem(designFile, m.id, m.provider, pluginMsg.noExport()));
    }
    out.set(m.provider, guarded(mod as unknown as ProviderModule, m.provider, designFile));
  }
  return out;
}
