import type { Logger } from '../../core/logger.js';
import type { SelectiveAnalysis } from '../../analyses/selective/index.js';
import { selectiveText } from '../../analyses/selective/outputs.js';
import { fixed } from '../../core/format.js';
import { logFiles } from '../command-options.js';

/** What `samegame analyze` prints for a context-enrichment run: the verdict table, then the files. */
export function printSelective(res: SelectiveAnalysis, logger: Logger): void {
  logger.print?.(`${selectiveText(res.rows)}\n`);
  const im = res.imputation;
  logger.info(`run ${res.source.run.id} (${res.source.run.designName}): ${res.rows.length} model × condition groups; `
    + (im.scored === 0 ? 'sampled text, no imputation'
      : (`imputation sensitivity: ${im.imputed}/${im.scored} calls imputed, largest change ${fixed(100 * im.maxChange, 2)} points, ` +
        `rankings ${im.rankingsUnchanged ? 'unchanged' : 'CHANGED'}`)));
  logFiles(res.files, logger);
}
