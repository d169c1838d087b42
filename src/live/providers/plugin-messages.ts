/**
 * The messages of provider plug-ins (plugins.ts, their one user), as functions taking plain
 * values: kept beside the module that says them.
 */
const q = (s: string) => JSON.stringify(s);

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
