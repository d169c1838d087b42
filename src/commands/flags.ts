/**
 * What the CLI needs of the layers below to parse its flags: the input kinds' file flags, the
 * built-in log formats, round ranges and plug-in provider specs. cli/ imports them from here only.
 */
export { FILE_FLAGS, type InputChoice, type SourceId } from '../sources/input.js';
export { BUILTIN_LOG_FORMATS, parseRoundRange, type ShortMatches } from '../sources/logs/index.js';
export { isPluginSpec } from '../live/providers/plugin-spec.js';
