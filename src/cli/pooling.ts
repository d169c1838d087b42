import { Option, type Command } from 'commander';
import { POOLING_OUTPUTS, poolingHelp, TABLE_POOLINGS } from '../commands/pipeline/table-pooling.js';
import { oneOf } from './options.js';

/** --pooling fixed|random (reproduce, analyze: the table file and the report's section; report: the section alone). */
export const poolingOption = (outputs: keyof typeof POOLING_OUTPUTS = 'files'): Option =>
  new Option('--pooling <kind>', poolingHelp(POOLING_OUTPUTS[outputs])).argParser(oneOf('--pooling', TABLE_POOLINGS));
export const addPoolingFlag = (cmd: Command): Command => cmd.addOption(poolingOption());
