/**
 * The user-facing messages used only in live/providers/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */
import { q } from '../../core/messages/text.js';

export const providersMsg = {
  unknownProvider: (id: string, known: readonly string[]) =>
    `provider ${q(id)} is not known (known: ${known.join(', ')})`,
  missingKey: (model: string, env: string) =>
    `model ${q(model)}: the environment variable ${env} that should hold the API key is not set`,
};

/** The messages of provider plug-ins (plugins.ts). */
export const pluginMsg = {
  /** One line naming the design file, the model and the provider module. */
  problem: (designFile: string, model: string, spec: string, what: string) =>
    `${designFile}: model ${q(model)}: provider ${q(spec)}: ${what}`,
  notFound: (where: string) => `cannot load the provider module (no such module: ${where})`,
  loadFailed: (reason: string) => `the provider module failed to load (${reason})`,
  noExport: () => 'the module exports no function createProvider(model, settings)',
  threw: (reason: string) => `createProvider threw: ${reason}`,
  badShape: (what: string) => `createProvider returned ${what}, not a Provider ({ id: string, complete(request) })`,
};
