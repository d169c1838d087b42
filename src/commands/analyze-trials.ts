/**
 * `samegame analyze --trials FILE… --format NAME|DESCRIPTION.yaml`: published logs of repeated
 * play read through a log format into `RepeatedDecisions`, for the analysis of repeated play
 * (the outputs of a repeated store: cells, rounds, reactions, figures, the match browser).
 */
import { resolve } from 'node:path';
import type { RepeatedDecisions, RoundRange } from '../core/decisions.js';
import { UserError } from '../core/errors.js';
import { logsMsg } from '../core/messages/logs.js';
import { parseRoundRange, readLogDecisions } from '../sources/logs/index.js';

export interface AnalyzeTrialsOptions {
  /** The log files, in order, as the user named them. */
  readonly trials: readonly string[];
  /** A built-in log format (akata, fairgame) or a description file. */
  readonly format: string;
  /** Rounds to keep (`1`, `1-3`). */
  readonly rounds?: string;
  /** Keep only these players' decisions. */
  readonly models?: readonly string[];
}

/** The decisions of the logs and the round range the analysis keeps; input errors are thrown before anything else. */
export function readAnalyzeTrials(opts: AnalyzeTrialsOptions): { readonly input: RepeatedDecisions; readonly rounds?: RoundRange } {
  const rounds = opts.rounds === undefined ? undefined : parseRoundRange(opts.rounds);
  const input = readLogDecisions(opts.trials.map((f) => resolve(f)), opts.format, { displayPaths: opts.trials, models: opts.models });
  return { input, rounds };
}

/**
 * Read the logs (every input error named with file, line and field), then hand the decisions to
 * the analysis of repeated play; a build without that analysis ends here with one line (exit 2).
 */
export function analyzeTrials(opts: AnalyzeTrialsOptions): never {
  const { input } = readAnalyzeTrials(opts);
  throw new UserError(logsMsg.analyzeTrialsUnavailable(input.decisions.length, new Set(input.decisions.map((d) => d.match)).size));
}
