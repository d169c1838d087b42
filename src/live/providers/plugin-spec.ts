/**
 * What a design's `provider:` may name besides a built-in id: a plug-in module. A path (./x.mjs,
 * ../x.js, /abs/x.mjs) is read relative to the design file; a package is named @scope/name or
 * samegame-provider-* (the ESLint convention), so a misspelt built-in id is a design error, not a
 * module lookup.
 */
export const PLUGIN_SPEC_RE = /^(?:\.{1,2}\/|\/)\S+$|^@[a-z0-9][a-z0-9._~-]*\/[a-z0-9][a-z0-9._~-]*(?:\/\S+)?$|^samegame-provider-[a-z0-9._~-]+(?:\/\S+)?$/;

export const isPluginSpec = (spec: string): boolean => PLUGIN_SPEC_RE.test(spec);

/** Whether a plug-in spec is a file path (as opposed to a package name). */
export const isPathSpec = (spec: string): boolean => /^(?:\.{1,2}\/|\/)/.test(spec);
