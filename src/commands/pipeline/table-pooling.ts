/**
 * `--pooling random` of reproduce and analyze: Table 3's per-model and pooled shift and R as
 * random effects over games (reports/table3-random.csv, and the table on the terminal). The
 * default, fixed, leaves every output as it was: the paper's unweighted means.
 */
import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import type { Section } from '../../render/html.js';
import { POOLED } from '../../core/names.js';
import type { TwoFramingAnalysis } from '../../analyses/two-framing/index.js';
import { meta } from '../../analyses/meta/index.js';

export type TablePooling = 'fixed' | 'random';
export const TABLE_POOLINGS: readonly TablePooling[] = ['fixed', 'random'];
/** --pooling's help, naming what random pooling adds to the command's outputs. */
export const poolingHelp = (outputs: string): string =>
  `Table 3 pooling over games: fixed (the paper's unweighted means, default) or random (random effects, REML and Hartung–Knapp, with τ² and I²: ${outputs})`;
/** What --pooling random adds: the table file (reproduce, analyze) or the report's section (report, which writes report.html alone). */
export const POOLING_OUTPUTS = { files: 'reports/table3-random.csv and a section of the report',
  report: 'a section of the report; reproduce writes reports/table3-random.csv' } as const;

const rows = (a: TwoFramingAnalysis) => meta.randomTable3(a.table, a.settings, POOLED);

/** reports/table3-random.csv with --pooling random, else nothing. */
export const poolingFiles = (pooling: TablePooling | undefined, reportsDir: string, a: TwoFramingAnalysis): OutputFile[] =>
  (pooling === 'random' ? [{ path: join(reportsDir, 'table3-random.csv'), content: meta.randomTable3Csv(rows(a)) }] : []);

/** The random-effects Table 3 for the terminal with --pooling random, else undefined. */
export const poolingText = (pooling: TablePooling | undefined, a: TwoFramingAnalysis): string | undefined =>
  (pooling === 'random' ? meta.randomTable3Text(rows(a)) : undefined);

/** The report section of the random-effects Table 3 with --pooling random, else none. */
export const poolingSections = (pooling: TablePooling | undefined, a: TwoFramingAnalysis): Section[] =>
  (pooling === 'random' ? [meta.randomTable3Section(rows(a))] : []);

/** The random-effects Table 3 and a newline with --pooling random, else nothing: printed after Table 3. */
export function poolingLines(pooling: TablePooling | undefined, a: TwoFramingAnalysis): string {
  const text = poolingText(pooling, a);
  return text === undefined ? '' : `${text}\n`;
}
