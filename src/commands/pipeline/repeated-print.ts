import type { Logger } from '../../core/logger.js';
import { repeated } from '../../analyses/repeated/index.js';
import { shown } from '../../core/display-names.js';
import { table3Text } from '../../analyses/two-framing/terminal.js';
import type { RepeatedResult } from './repeated.js';
import { logFiles } from '../command-options.js';

/** What `samegame analyze` prints for repeated play: cooperation per cell, Table 3 with two framings, the files and notes. */
export function printRepeated(res: RepeatedResult, logger: Logger): void {
  logger.print?.(`${repeated.terminal.cells(repeated.tables.cells(res.analysis), res.analysis.settings.factors, res.analysis.settings.names,
    res.analysis.settings.interval === 'cluster-bootstrap')}\n`);
  const t = res.twoFraming;
  const names = res.analysis.settings.names;
  if (t) logger.print?.(
    `${table3Text(t.table3.map((r) => ({ ...r, model: shown(names, r.model) })), t.analysis.settings.attenuation, t.analysis.boot.method,
      t.analysis.bands?.c)}\n`);
  for (const n of t?.analysis.boot.notes ?? []) logger.warn(n);
  logFiles(res.files, logger);
  for (const n of res.input.notes ?? []) logger.warn(n);
}
