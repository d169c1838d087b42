import { Option, type Command } from 'commander';
import { POOLING_HELP, TABLE_POOLINGS } from '../commands/meta-pooling.js';
import { oneOf } from './options.js';

/** --pooling fixed|random (reproduce, analyze). */
export const poolingOption = (): Option => new Option('--pooling <kind>', POOLING_HELP).argParser(oneOf('--pooling', TABLE_POOLINGS));
export const addPoolingFlag = (cmd: Command): Command => cmd.addOption(poolingOption());
