import type { Command } from 'commander';
import type { ShortMatches } from '../commands/flags.js';
import { collect, parseShortMatches, terminalLogger } from './options.js';

export function registerSql(program: Command): void {
  program
    .command('sql')
    .description('Print the query that reduces a log to its per-match aggregates (DuckDB SQL); `analyze --aggregates FILE` reads its result')
    .requiredOption('--trials <file>', 'a log file or glob, as the query will read it (repeatable)', collect)
    .requiredOption('--format <name>', 'the log format: a built-in name or a description (.yaml)')
    .option('--short-matches <drop|keep>', 'short matches: left out (drop, the default) or kept', parseShortMatches)
    .option('--models <names>', 'keep only these players (comma-separated)', (v: string) => v.split(',').map((s) => s.trim()).filter((s) => s !== ''))
    .action(async (o: { trials: string[]; format: string; shortMatches?: ShortMatches; models?: string[] }) => {
      const { sql } = await import('../commands/sql.js');
      sql({ trials: o.trials, format: o.format, shortMatches: o.shortMatches, models: o.models, logger: terminalLogger(true) });
    });
}
