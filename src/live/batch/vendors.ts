/**
 * The batch services by vendor, one Record: a model's provider names its vendor in the provider
 * registry (`batch:`), and the batch run reaches the vendor's lines, client and reader through
 * this Record alone.
 */
import { UserError } from '../../core/errors.js';
import { BUILTIN_PROVIDER_IDS, BUILTIN_PROVIDERS, isBuiltinProvider, type BatchVendorId } from '../providers/registry.js';
import { ANTHROPIC_BATCH } from './anthropic.js';
import { GEMINI_BATCH } from './gemini.js';
import { OPENAI_BATCH } from './openai.js';
import type { BatchVendor } from './vendor.js';
import { liveBatchMsg } from './messages.js';

export const BATCH_VENDORS: Readonly<Record<BatchVendorId, BatchVendor>> = {
  openai: OPENAI_BATCH,
  anthropic: ANTHROPIC_BATCH,
  gemini: GEMINI_BATCH,
};

/** The built-in providers that can run as batches (sorted). */
export const batchProviders = (): string[] => BUILTIN_PROVIDER_IDS.filter((id) => BUILTIN_PROVIDERS[id].batch !== undefined);

/** The batch vendor of a provider id, or undefined when it has none. */
export function vendorIdOf(provider: string): BatchVendorId | undefined {
  return isBuiltinProvider(provider) ? BUILTIN_PROVIDERS[provider].batch : undefined;
}

/** The batch vendor of a model's provider; a UserError when it has none. */
export function vendorOf(model: { readonly id: string; readonly provider: string }): BatchVendor {
  const v = vendorIdOf(model.provider);
  if (v === undefined) throw new UserError(liveBatchMsg.notBatchable(model.id, model.provider, batchProviders()));
  return BATCH_VENDORS[v];
}
