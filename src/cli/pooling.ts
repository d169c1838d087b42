import { Option, type Command } from 'commander';
import { POOLING_HELP, poolingText, TABLE_POOLINGS, type TablePooling } from '../commands/meta-pooling.js';
import type { TwoFramingAnalysis } from '../analyses/two-framing/index.js';
import { oneOf } from './options.js';

/** --pooling fixed|random (reproduce, analyze). */
export const poolingOption = (): Option => new Option('--pooling <kind>', POOLING_HELP).argParser(oneOf('--pooling', TABLE_POOLINGS));
export const addPoolingFlag = (cmd: Command): Command => cmd.addOption(poolingOption());

/** The random-effects Table 3 and a newline with --pooling random, else nothing: printed after Table 3. */
export function poolingLines(pooling: TablePooling | undefined, a: TwoFramingAnalysis): string {
  const text = poolingText(pooling, a);
  return text === undefined ? '' : `${text}\n`;
}
