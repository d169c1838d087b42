/**
 * What the CLI needs of the layers below to parse its flags: the input kinds' file flags, the
 * built-in log formats, round ranges and plug-in provider specs. cli/ imports them from here only.
 * Also the one check of the log flags, which `analyze` and the CLI's rates commands both make.
 */
import type { RoundRange } from '../core/decisions.js';
import { UserError } from '../core/errors.js';
import { logsMsg } from '../core/messages/logs.js';
import { parseRoundRange } from '../sources/logs/index.js';
import { commandsMsg } from './messages.js';

export { DEFAULT_ATTENUATION, FILE_FLAGS, type InputChoice, type SourceId } from '../sources/input.js';
export { BUILTIN_LOG_FORMATS, parseRoundRange, type ShortMatches } from '../sources/logs/index.js';
export { isPluginSpec } from '../live/providers/plugin-spec.js';

/**
 * --format and --rounds need --trials; --rounds and several --trials files need --format; --rounds
 * is a round or a range. With `store` (analyze STORE) --rounds needs neither: the store's kind decides.
 */
export function checkLogFlags(o: { trials?: string | readonly string[]; format?: string; rounds?: string | RoundRange; cluster?: string },
  store?: string): void {
  if (store !== undefined && o.trials === undefined) {
    if (o.format !== undefined) throw new UserError(commandsMsg.formatNeedsTrialsStore());
  } else {
    if (o.trials === undefined && (o.format !== undefined || o.rounds !== undefined)) throw new UserError(commandsMsg.formatNeedsTrials());
    if (o.format === undefined && o.rounds !== undefined) throw new UserError(logsMsg.roundsNeedFormat());
  }
  if (o.format === undefined && o.trials !== undefined && typeof o.trials !== 'string' && o.trials.length > 1) throw new UserError(
    logsMsg.severalTrialsNeedFormat());
  if (o.format !== undefined && o.cluster !== undefined) throw new UserError(commandsMsg.clusterIsMatch());
  if (typeof o.rounds === 'string') parseRoundRange(o.rounds);
}
