/**
 * The display names of a two-framing analysis, whichever route the data took: the input's own
 * (a design's `names:` block, read from the store or from an export's sidecar), then `--names
 * FILE` over them (sources/names-file.ts readDisplayNames: one warning per id that names nothing).
 * Two levels given one name are refused in one line.
 */
import type { CellTable } from '../core/cells.js';
import type { DisplayNames } from '../core/display-names.js';
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Origin } from '../core/provenance.js';
import { nameTargets, readDisplayNames } from '../sources/names-file.js';
import { nameClash } from '../analyses/two-framing/index.js';
import { commandsMsg } from './messages.js';

export interface InputNames {
  /** `--names FILE` as given, when given (the regenerate command names it). */
  readonly file?: string;
  readonly map: DisplayNames;
}

/** The names of the analysis (of the levels `fields` names), or undefined when neither the input nor a file gives any. */
export function inputNames(table: CellTable, origin: Origin, file: string | undefined, logger: Logger,
  fields: readonly ('model' | 'game' | 'framing')[] = ['model', 'game', 'framing']): InputNames | undefined {
  const own = origin.names && Object.keys(origin.names).length ? origin.names : undefined;
  if (own === undefined && file === undefined) return undefined;
  const where = commandsMsg.namesOf(origin.source.path, origin.run?.id);
  const map = readDisplayNames({
    source: own, sourceBlock: where, file, warn: (m) => logger.warn(m),
    targets: nameTargets(table.cells, fields, (c, f) => c.key[f]),
  });
  const clash = nameClash(table, map);
  if (clash) throw new UserError(commandsMsg.clash(file ?? where, clash.id, clash.name, clash.other));
  return { ...(file !== undefined ? { file } : {}), map };
}
