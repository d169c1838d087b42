/**
 * `samegame analyze`: a trial store (`store`, `runId`) or published logs of repeated play
 * (`trials`, `format`). The kind of the input is read once (`sourceOf`, the Source union) and
 * ANALYZE_INPUTS gives each kind its analysis: a store by the kind of its run (RUN_KINDS), a log
 * as repeated play. Each computes its tables, figures and report as values; the pipeline
 * (pipeline/write.ts) writes them as one atomic set, then prints through the logger what the CLI
 * shows and sets the exit code.
 */
import type { RoundRange } from '../core/decisions.js';
import { UserError } from '../core/errors.js';
import { sourceOf, type SourceKind, type SourceOf } from '../sources/input.js';
import type { ShortMatches } from '../sources/logs/index.js';
import { RUN_KINDS, readStoredRun, type AnyAnalysis } from './pipeline/store-kinds.js';
import type { StoreAnalyzeOptions } from './pipeline/store-settings.js';
import { analyzeAggregates, analyzeTrials, defaultTrialsOut } from './analyze-trials.js';
import { printRepeated } from './pipeline/repeated-print.js';
import type { RepeatedResult } from './pipeline/repeated.js';
import { checkLogFlags } from './flags.js';
import { checkOut, type CommandOptions, type FigureOption } from './command-options.js';
import { finish } from './pipeline/write.js';
import { commandsMsg } from './messages.js';
import { analyzeStore } from './pipeline/store-analysis.js';

export type { AnalyzeResult } from './pipeline/direct-run.js';
export { DEFAULT_THRESHOLDS } from '../analyses/selective/estimand.js';
export { analyzeCommand, defaultAnalyzeOut, directRunSettings, type StoreAnalyzeOptions } from './pipeline/store-settings.js';
export { RUN_KINDS, type AnyAnalysis, type RunKind, type RunKindAnalysis } from './pipeline/store-kinds.js';

/** The options of `analyze`: its input — a trial store, or published logs read through a log format — and its settings. */
export interface AnalyzeOptions extends Omit<StoreAnalyzeOptions, 'store' | 'rounds'>, CommandOptions, FigureOption {
  /** A trial store written by `samegame run` (the run `runId`, else the latest). */
  readonly store?: string;
  /** Published logs of repeated play, in order, read through `format` (a built-in name or a description file). */
  readonly trials?: string | readonly string[];
  readonly format?: string;
  /** An aggregates table (CSV or Parquet) of a log: `samegame sql`'s query run elsewhere (docs/reference/aggregates.md); `format` may name its log format. */
  readonly aggregates?: string;
  /** Logs: keep only these players' decisions; a log's short matches left out (default) or kept. */
  readonly models?: readonly string[];
  readonly shortMatches?: ShortMatches;
  /** Repeated play: the rounds the two-framing tables read (`1`, `1-3`; all by default). */
  readonly rounds?: string | RoundRange;
}

/**
 * The tables of a stored run's analysis (no figures, no report), computed and not written: the
 * analysis of the run's kind (RUN_KINDS). The result's `kind` tells which.
 */
export function analyzeTables(opts: StoreAnalyzeOptions): AnyAnalysis {
  const run = readStoredRun(opts);
  return RUN_KINDS[run.kind].analyze(run, opts);
}

/** The settings every repeated-play input takes from `analyze`'s options (published logs, an aggregates table). */
const repeatedSettings = (opts: AnalyzeOptions) => ({
  rounds: opts.rounds, factors: opts.factors, out: opts.out, namesFile: opts.namesFile, players: opts.players, figureStyle: opts.figureStyle,
  latexWidth: opts.latexWidth, figures: opts.figures, base: opts.base, alt: opts.alt, attenuation: opts.attenuation,
  seed: opts.seed, reps: opts.reps, interval: opts.interval, clusterInterval: opts.clusterInterval, simultaneous: opts.simultaneous, logger: opts.logger,
});

/** Repeated play analysed (published logs, an aggregates table): written, printed as a repeated run's, its checks failing the command. */
function finishRepeated(res: RepeatedResult, opts: AnalyzeOptions): RepeatedResult {
  return finish({ result: res, files: res.files, print: (logger) => printRepeated(res, logger), checks: res.twoFraming?.verification }, opts);
}

/** Published logs of repeated play: the analysis of repeated play, as a repeated run's. */
async function analyzeLogs(source: SourceOf<'log'>, opts: AnalyzeOptions): Promise<RepeatedResult> {
  checkOut(opts, defaultTrialsOut(source.files[0]));
  return finishRepeated(await analyzeTrials({
    ...repeatedSettings(opts), trials: source.files, format: source.format, shortMatches: opts.shortMatches, models: opts.models,
  }), opts);
}

/** An aggregates table: the analysis of repeated play, as the log's. */
async function analyzeAggregatesFile(source: SourceOf<'aggregates'>, opts: AnalyzeOptions): Promise<RepeatedResult> {
  checkOut(opts, defaultTrialsOut(source.file));
  return finishRepeated(await analyzeAggregates({ ...repeatedSettings(opts), aggregates: source.file, format: source.format }), opts);
}

const refuse = (message: () => string) => (): never => { throw new UserError(message()); };

/** The options only some inputs take: the flag that gives each, and whether it was given (a default is not). */
const INPUT_OPTIONS = {
  run: { flag: '--run', given: (o: AnalyzeOptions) => o.runId !== undefined },
  compare: { flag: '--compare', given: (o: AnalyzeOptions) => o.compare !== undefined },
  mapModel: { flag: '--map-model', given: (o: AnalyzeOptions) => o.modelMap !== undefined },
  expect: { flag: '--expect', given: (o: AnalyzeOptions) => o.expect !== undefined },
  verdictAlpha: { flag: '--verdict-alpha', given: (o: AnalyzeOptions) => o.verdictAlpha !== undefined },
  publishedReps: { flag: '--published-reps', given: (o: AnalyzeOptions) => o.publishedReps !== undefined },
  publishedMethod: { flag: '--published-method', given: (o: AnalyzeOptions) => o.publishedMethod !== undefined },
  maxSurface: { flag: '--max-surface-sensitivity', given: (o: AnalyzeOptions) => o.thresholds?.maxSurface !== undefined },
  minWorldLo: { flag: '--min-world-responsiveness', given: (o: AnalyzeOptions) => o.thresholds?.minWorldLo !== undefined },
  pooling: { flag: '--pooling', given: (o: AnalyzeOptions) => o.pooling !== undefined },
  verifyStore: { flag: '--verify-store', given: (o: AnalyzeOptions) => o.verifyStore === true },
  models: { flag: '--models', given: (o: AnalyzeOptions) => o.models !== undefined },
  shortMatches: { flag: '--short-matches', given: (o: AnalyzeOptions) => o.shortMatches !== undefined },
} as const;
type InputOption = keyof typeof INPUT_OPTIONS;

/** How `analyze` reads a kind of input: what it is called, the options of INPUT_OPTIONS it takes, its analysis; none for a kind refused outright. */
interface AnalyzeInput<K extends SourceKind> {
  readonly input?: { readonly name: string; readonly takes: readonly InputOption[] };
  readonly analyze: (source: SourceOf<K>, opts: AnalyzeOptions) => Promise<AnyAnalysis>;
}

/** The analysis of each kind of input `analyze` reads; per-trial files need a log format, and rates are reproduce's. */
const ANALYZE_INPUTS: { readonly [K in SourceKind]: AnalyzeInput<K> } = {
  store: {
    input: { name: 'a trial store', takes: ['run', 'compare', 'mapModel', 'expect', 'verdictAlpha', 'publishedReps', 'publishedMethod', 'maxSurface',
      'minWorldLo', 'pooling', 'verifyStore'] },
    analyze: analyzeStore,
  },
  log: { input: { name: 'published logs (--trials FILE --format NAME)', takes: ['models', 'shortMatches'] }, analyze: analyzeLogs },
  aggregates: { input: { name: 'an aggregates table (--aggregates FILE)', takes: [] }, analyze: analyzeAggregatesFile },
  trials: { analyze: refuse(commandsMsg.analyzeNeedsFormat) },
  rates: { analyze: refuse(commandsMsg.analyzeStoreOrTrials) },
  digitized: { analyze: refuse(commandsMsg.analyzeStoreOrTrials) },
};

/** An option given that the input's kind does not take: one line naming it, the inputs that take it and this one. */
function refuseOptions(kind: SourceKind, opts: AnalyzeOptions): void {
  const input = ANALYZE_INPUTS[kind].input;
  if (input === undefined) return;
  for (const [name, option] of Object.entries(INPUT_OPTIONS) as [InputOption, (typeof INPUT_OPTIONS)[InputOption]][]) {
    if (input.takes.includes(name) || !option.given(opts)) continue;
    const takers = Object.values(ANALYZE_INPUTS).flatMap((e) => (e.input?.takes.includes(name) ? [e.input.name] : []));
    throw new UserError(commandsMsg.optionNotForInput(option.flag, takers.join(' or '), input.name));
  }
}

/**
 * `samegame analyze`: a trial store — a two-framing run → the outputs of `reproduce` and more; a
 * context-enrichment run → selective robustness; a repeated run → cells, rounds, reactions and
 * the end game clustered by match — or published logs of repeated play (the repeated analysis).
 * Tables, figures (`figures: false`: the tables alone) and report are written as one atomic set
 * unless dryRun (pipeline/write.ts); the result is tagged by `kind` ('two-framing' | 'selective' | 'repeated').
 */
export async function analyze(opts: AnalyzeOptions): Promise<AnyAnalysis> {
  const given = [opts.store, opts.trials, opts.aggregates].filter((x) => x !== undefined).length;
  if (given !== 1) throw new UserError(commandsMsg.analyzeStoreOrTrials());
  if (opts.aggregates === undefined) checkLogFlags(opts, opts.store);
  const source = sourceOf(opts);
  refuseOptions(source.kind, opts);
  return (ANALYZE_INPUTS[source.kind] as AnalyzeInput<SourceKind>).analyze(source, opts);
}
