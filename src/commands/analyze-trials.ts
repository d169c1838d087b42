/**
 * `samegame analyze --trials FILE… --format NAME|DESCRIPTION.yaml`: published logs of repeated
 * play read through a log format into `RepeatedDecisions`, then the analysis of repeated play
 * (the outputs of a repeated store: cells, rounds, reactions, figures, the match browser).
 */
import { basename, extname, relative, resolve, isAbsolute } from 'node:path';
import type { RepeatedDecisions, RoundRange } from '../core/decisions.js';
import { readLogDecisions, type ShortMatches } from '../sources/logs/index.js';
import { displayNames } from '../core/display-names.js';
import { analyzeRepeated, repeatedTables, roundsOf, type AnalyzeRepeatedOptions, type RepeatedResult } from './pipeline/repeated.js';
import { sidecarOrder, sidecarPath, trialsOrigin } from '../sources/origin.js';
import { commandsMsg } from './messages.js';
import { aggregateDecisions, type RepeatedAggregates } from '../core/aggregate-decisions.js';
import { aggregatesFormat, fileSha256, readAggregatesFile, readLogAggregates } from '../sources/engine/index.js';
import type { Logger } from '../core/logger.js';
import type { RepeatedInput } from './pipeline/repeated-input.js';
import { UserError } from '../core/errors.js';
import { exportRoot, isParquetInput, sidecarBase } from '../sources/parquet/files.js';
import { exportSyntheticColumn } from '../sources/parquet/export-read.js';
import type { ProvenanceColumn } from '../sources/trials.js';

export interface AnalyzeTrialsOptions extends Omit<AnalyzeRepeatedOptions, 'rounds' | 'sourceArgs'> {
  /** The log files, in order, as the user named them. */
  readonly trials: readonly string[];
  /** A built-in log format (akata, fairgame) or a description file. */
  readonly format: string;
  /** Rounds to keep (`1`, `1-3`). */
  readonly rounds?: string | RoundRange;
  /** Keep only these players' decisions. */
  readonly models?: readonly string[];
  /** A short match: left out (default) or kept. */
  readonly shortMatches?: ShortMatches;
  /** Figures and the report (default); false: the tables alone. */
  readonly figures?: boolean;
}

/** The decisions of the logs and the round range the analysis keeps; input errors are thrown before anything else. */
export function readAnalyzeTrials(opts: AnalyzeTrialsOptions): { readonly input: RepeatedDecisions; readonly rounds?: RoundRange } {
  const rounds = roundsOf(opts.rounds);
  const input = readLogDecisions(opts.trials.map((f) => resolve(f)), opts.format, { displayPaths: opts.trials, models: opts.models,
    shortMatches: opts.shortMatches });
  return { input: withSidecar(input, opts.trials), rounds };
}

/**
 * One exported file read back (`export` of a repeated store, then `--trials FILE`): the provenance its sidecar records — the run,
 * the synthetic flag and why, the design's names — restored as the store's reader gives them (sources/origin.ts trialsOrigin).
 */
function withSidecar<T extends RepeatedDecisions>(input: T, files: readonly string[]): T {
  if (files.length !== 1) return input;
  const parquet = isParquetInput(files[0]);
  const read = (columns: readonly ProvenanceColumn[]) => trialsOrigin(sidecarBase(files[0]), files[0], input.sha256, columns, { expected: parquet });
  let { origin, notes } = read([]);
  // No sidecar for these bytes: a Parquet export's own synthetic column says whether its trials are synthetic.
  if (parquet && !origin.synthetic && origin.run === undefined) ({ origin, notes } = read([exportSyntheticColumn(files[0], files[0])]));
  const allNotes = [...(input.notes ?? []), ...notes];
  const withNotes = allNotes.length ? { ...input, notes: allNotes } : input;
  if (origin.run === undefined && !origin.synthetic) return withNotes;
  const names = input.names ?? (origin.names && Object.keys(origin.names).length ? { ...origin.names } : undefined);
  return { ...withNotes, synthetic: input.synthetic || origin.synthetic, origin,
    ...(names ? { names, namesBlock: input.namesBlock ?? commandsMsg.namesOf(sidecarPath(files[0]), origin.run?.id) } : {}) };
}

/**
 * The logs as per-match aggregates: read by the query engine when it compiles the format (memory O(matches)), else read in memory and
 * aggregated here (the decisions kept for the match browser). Either way the tables read the aggregates, cells and matches sorted.
 */
export async function readTrialAggregates(opts: AnalyzeTrialsOptions, logger?: Logger): Promise<{ input: RepeatedAggregates; rounds?: RoundRange }> {
  const rounds = roundsOf(opts.rounds);
  // The engine reads log files; a Parquet export is read as the CSV export of its trials (sources/parquet/export-read.ts).
  const viaEngine = opts.trials.some(isParquetInput) ? undefined
    : await readLogAggregates(opts.trials, opts.format, { models: opts.models, shortMatches: opts.shortMatches, logger });
  if (viaEngine) return { input: inDesignOrder(withSidecar(viaEngine, opts.trials), opts.trials), rounds };
  const { input } = readAnalyzeTrials(opts);
  const factors = [...new Set(input.decisions.flatMap((d) => Object.keys(d.factors ?? {})))].sort();
  return { input: inDesignOrder({ ...input, aggregates: aggregateDecisions(input.decisions, factors) }, opts.trials), rounds };
}

/** An export read back lists its cells in the design's order, which its sidecar records (one file or export), as the store does. */
function inDesignOrder(input: RepeatedAggregates, files: readonly string[]): RepeatedAggregates {
  const order = files.length === 1 ? sidecarOrder(sidecarBase(files[0]), input.sha256) : undefined;
  if (order) input.aggregates.levelOrder = [order.models, order.games, order.framings];
  return input;
}

/** The analysis of repeated play with its figures and report, or its tables alone (`figures: false`): its files as values. */
function repeatedOutputs(input: RepeatedInput, o: AnalyzeRepeatedOptions, figures: boolean | undefined): Promise<RepeatedResult> {
  return figures !== false ? analyzeRepeated(input, o) : Promise.resolve(repeatedTables(input, o));
}

/**
 * Where the outputs of published logs go by default: a folder named after the first log, in the working directory; for a Parquet
 * export (its folder, a file or a glob of its files), the export folder's name with `-analysis`.
 */
export const defaultTrialsOut = (first: string): string =>
  (isParquetInput(first) ? resolve(`${basename(exportRoot(first))}-analysis`) : resolve(basename(first, extname(first))));

/** An output folder that is, or lies inside, a Parquet export read is refused: its reports would be written into the export. */
function checkTrialsOut(trials: readonly string[], out: string): void {
  for (const t of trials.filter(isParquetInput)) {
    const rel = relative(exportRoot(t), resolve(out));
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) throw new UserError(commandsMsg.outInExport(out, t));
  }
}

/** Read the logs (every input error named with file, line and field), then analyse their repeated play (the tables alone with `figures: false`). */
export async function analyzeTrials(opts: AnalyzeTrialsOptions): Promise<RepeatedResult> {
  const out = opts.out ?? defaultTrialsOut(opts.trials[0]);
  checkTrialsOut(opts.trials, out);
  const { input, rounds } = await readTrialAggregates(opts, opts.logger);
  const o: AnalyzeRepeatedOptions = {
    ...opts, rounds, out,
    sourceArgs: { positional: [], flags: { trials: opts.trials, format: opts.format, shortMatches: opts.shortMatches, models: opts.models } },
  };
  return repeatedOutputs(input, o, opts.figures);
}

export interface AnalyzeAggregatesOptions extends Omit<AnalyzeRepeatedOptions, 'rounds' | 'sourceArgs'> {
  /** The aggregates table (CSV or Parquet) as the user named it. */
  readonly aggregates: string;
  /** The log format the table was aggregated through: its display names, scripted players and kind (optional). */
  readonly format?: string;
  readonly rounds?: string | RoundRange;
  readonly figures?: boolean;
}

/** An aggregates table analysed as the log it was made of: the same tables as `analyze --trials` on that log. */
export async function analyzeAggregates(opts: AnalyzeAggregatesOptions): Promise<RepeatedResult> {
  const rounds = roundsOf(opts.rounds);
  const f = aggregatesFormat(opts.format);
  const path = resolve(opts.aggregates);
  const aggregates = await readAggregatesFile(path, opts.aggregates, opts.logger);
  const input: RepeatedAggregates = {
    path: opts.aggregates, sha256: await fileSha256(path), kind: f ? `aggregates of a ${f.kind ?? `${f.name} log`}` : 'aggregates table', synthetic: false,
    decisions: [], decisionCount: aggregates.decisions, aggregates,
    ...(f?.names ? { names: displayNames(Object.entries(f.names)) } : {}), ...(f?.scripted ? { scripted: f.scripted } : {}),
  };
  const o: AnalyzeRepeatedOptions = {
    ...opts, rounds, out: opts.out ?? defaultTrialsOut(opts.aggregates),
    sourceArgs: { positional: [], flags: { aggregates: opts.aggregates, format: opts.format } },
  };
  return repeatedOutputs(input, o, opts.figures);
}
