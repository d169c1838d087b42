/**
 * `samegame sql --trials FILE… --format NAME|DESCRIPTION.yaml`: the aggregation query of the logs
 * (DuckDB dialect; docs/guides/logs-in-a-warehouse.md says what to change for Spark SQL or
 * BigQuery), printed for a user whose data live elsewhere; its result, saved as CSV or Parquet, is
 * what `analyze --aggregates FILE` reads (docs/reference/aggregates.md).
 */
import { UserError } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { aggregationSql, unsupported } from '../sources/engine/index.js';
import { resolveLogFormat, type ShortMatches } from '../sources/logs/index.js';
import { commandsMsg } from './messages.js';

export interface SqlOptions {
  /** The log files (or globs) as DuckDB should read them: paths relative to where the query runs. */
  readonly trials: string | readonly string[];
  /** A built-in log format or a description file. */
  readonly format: string;
  /** Short matches left out (default) or kept. */
  readonly shortMatches?: ShortMatches;
  /** Keep only these players' decisions. */
  readonly models?: readonly string[];
  /** Where the query is printed (`logger.print`). */
  readonly logger?: Logger;
}

/** The aggregation query of the logs, printed through the logger; UserError when the engine does not compile the format. */
export function sql(opts: SqlOptions): string {
  const files = typeof opts.trials === 'string' ? [opts.trials] : [...opts.trials];
  const f = resolveLogFormat(opts.format);
  const why = unsupported(f);
  if (why !== undefined) throw new UserError(commandsMsg.sqlNotCompiled(f.name, why));
  const text = `${aggregationSql(files, f, { shortMatches: opts.shortMatches, models: opts.models })};\n`;
  (opts.logger ?? silentLogger).print?.(text);
  return text;
}
