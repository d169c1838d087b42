import type { Logger } from '../core/logger.js';
import { fixed, interval } from '../core/format.js';
import { meta } from '../analyses/meta/index.js';
import type { MetaResult } from './meta.js';
import { logFiles } from './command-options.js';
import { namedMeta } from '../analyses/meta/named.js';

/** What `samegame meta` prints: the pooled table (with -q, the overall line alone), the notes, the files. */
export function printMeta(res: MetaResult, logger: Logger, quiet = false): void {
  const a = namedMeta(res.analysis, res.names); // the terminal shows display names
  const overall = a.multilevel ?? a.pooled.find((p) => p.scope === 'overall');
  if (!quiet) logger.print?.(`${meta.text(a)}\n`);
  else if (overall) logger.print?.(
    (`overall ${a.settings.effect}: ${fixed(overall.estimate)} ${interval(overall.ci_lo, overall.ci_hi)}${a.multilevel ? ' (three-level)' : ''}, k ` +
      `= ${overall.k}\n`));
  for (const n of a.notes) logger.warn(n);
  logFiles(res.files, logger);
}
