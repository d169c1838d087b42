import type { Logger } from '../../core/logger.js';
import { table3Text } from '../../analyses/two-framing/terminal.js';
import { framingTestText, hasFramingTests } from '../../analyses/two-framing/framing-tests.js';
import type { AnalyzeResult } from './direct-run.js';
import { poolingLines } from './table-pooling.js';
import { logFiles } from '../command-options.js';
import { shown } from '../../core/display-names.js';

/** What `samegame analyze` prints for a two-framing run: Table 3, what was left out and compared, the files, the checks' warnings. */
export function printTwoFraming(res: AnalyzeResult, logger: Logger, compare?: string): void {
  const rows = res.table3.map((r) => ({ ...r, model: shown(res.names?.map, r.model) }));
  logger.print?.(`${table3Text(rows, res.analysis.settings.attenuation, res.analysis.boot.method, res.analysis.bands?.c)}\n${poolingLines(res.pooling,
    res.analysis)}`);
  if (hasFramingTests(res.analysis)) logger.info(framingTestText(res.analysis));
  const inv = res.source.tallies.reduce((s, t) => s + t.invalid, 0);
  const err = res.source.tallies.reduce((s, t) => s + t.error, 0);
  logger.info((`run ${res.source.run.id} (${res.source.run.designName}): ${res.analysis.table.cells.length} cells, ${inv} invalid and ${err} failed trials ` +
    `left out (reports/invalid.csv)`));
  if (res.comparison) {
    const { unmatchedDirect: d, unmatchedReconstructed: r } = res.comparison;
    logger.info(`compared ${res.comparison.rows.length} cells with ${compare}; unmatched: ${d.length} direct, ${r.length} reconstructed`);
  }
  logFiles(res.files, logger);
  for (const n of res.analysis.boot.notes) logger.warn(n);
  for (const w of res.verification.checks.flatMap((c) => c.warnings ?? [])) logger.warn(w);
}
