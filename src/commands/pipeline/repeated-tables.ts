/**
 * The tables of `analyze` on repeated play, whatever the source of the decisions: cells, rounds,
 * reactions and the end game clustered by match, and with two or more framings the usual Table 2/3,
 * family robustness and checks on the cell table of the decisions (the opponent a factor of the
 * cell, clustered by match; repeated.framingTable). repeated.ts adds figures and the report; the
 * pipeline writes them (write.ts).
 */
import type { FigureStyle } from '../../render/paper-style.js';
import { join, resolve } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import { decisionsOrigin, roundsText, type RepeatedDecisions, type RoundRange } from '../../core/decisions.js';
import { labelSynthetic } from '../../core/provenance.js';
import { levels } from '../../core/cells.js';
import { UserError } from '../../core/errors.js';
import { analyzeMsg } from '../../core/messages/analyze.js';
import { silentLogger, type Logger } from '../../core/logger.js';
import { regenerateCommand, type FlagValue } from '../../core/command-line.js';
import type { VerificationReport } from '../../core/checks.js';
import { missingPlannedCell, TWO_FRAMING_DEFAULTS as DEFAULTS, withNamedLatex, twoFraming, type Table3Row, type TwoFramingAnalysis,
  type TwoFramingSettings } from '../../analyses/two-framing/index.js';
import { repeated, type ModelRow, type PlayerChoice, type RepeatedAnalysis } from '../../analyses/repeated/index.js';
import type { DisplayNames } from '../../core/display-names.js';
import { readDisplayNames } from '../../sources/names-file.js';
import { parseRoundRange } from '../../sources/logs/index.js';
import { directRunSettings, defaultAnalyzeOut } from './store-settings.js';
import { anyValid, checkRounds, choosePlayersOf, framingTableOf, inputNameTargets, knownFactors, repeatedCellsOf,
  type RepeatedInput } from './repeated-input.js';
import { adaptive } from '../../analyses/adaptive/index.js';
import type { RepeatedStoreDecisions } from '../../sources/repeated-store.js';
import { comprehensionResult, withComprehensionFiles, type ComprehensionResult } from './comprehension.js';
import type { ScoredProbe } from '../../analyses/comprehension/index.js';
import { latexOf } from '../command-options.js';
import { pipelineMsg } from './messages.js';

export interface AnalyzeRepeatedOptions extends Partial<TwoFramingSettings> {
  /** Output directory; default: beside the source, named after it. */
  readonly out?: string;
  /** Rounds the two-framing tables read (`--rounds 1`: the first round only); all by default. */
  readonly rounds?: RoundRange;
  /** Further decision factors kept in the cells (`--factor persona`): columns after `opponent`, folded into the game of the two-framing tables. */
  readonly factors?: readonly string[];
  /** Players analysed as models: those not scripted (default), or all (`--players all`). */
  readonly players?: PlayerChoice;
  /** Display names (`--names FILE`), over the source's own `names:` block. */
  readonly names?: DisplayNames;
  /** The --names file as given, for the regenerate command. */
  readonly namesFile?: string;
  /** `--figure-style paper` (render/paper-style.ts). */
  readonly figureStyle?: FigureStyle;
  /** `--latex-width`: the text width in pt the .tex tables are laid out for (345 by default). */
  readonly latexWidth?: number;
  readonly logger?: Logger;
  /** How the regenerate command names the source: a store path (the default, `input.path`), or published logs. */
  readonly sourceArgs?: { readonly positional: readonly string[]; readonly flags: Readonly<Record<string, FlagValue>> };
  /** A repeated run's answered comprehension probes (docs/methods.md §18c), and the threshold of their verdicts (default 0.9). */
  readonly probes?: readonly ScoredProbe[];
  readonly comprehensionThreshold?: number;
}

/** A `--rounds` value as given (`1`, `1-3`) or already parsed. */
export const roundsOf = (r: string | RoundRange | undefined): RoundRange | undefined => (typeof r === 'string' ? parseRoundRange(r) : r);

/** The two-framing analysis of the decisions' cell table, with two or more framings. */
export interface RepeatedTwoFraming {
  readonly analysis: TwoFramingAnalysis;
  readonly verification: VerificationReport;
  readonly table3: Table3Row[];
}

export interface RepeatedResult {
  readonly kind: 'repeated';
  readonly input: RepeatedDecisions;
  readonly analysis: RepeatedAnalysis;
  /** The per-model summary over opponents (reports/models.csv). */
  readonly models: readonly ModelRow[];
  readonly twoFraming?: RepeatedTwoFraming;
  readonly files: OutputFile[];
  readonly outDir: string;
  readonly reportsDir: string;
  /** The command line that regenerates these outputs (also in repeated.json and the report). */
  readonly command: string;
  /** A run with comprehension probes: its table, verdicts and (with two framings) the Table 3 marks. */
  readonly comprehension?: ComprehensionResult;
}

const rangeText = (r: RoundRange | undefined) => (r === undefined ? undefined : roundsText(r));

/** Table 2/3, family robustness and the checks of the decisions' cell table (opponent folded into the game: one planned contrast each). */
function twoFramingOf(input: RepeatedInput, opts: AnalyzeRepeatedOptions, reportsDir: string, command: string, logger: Logger,
  names?: DisplayNames): { result: RepeatedTwoFraming; files: OutputFile[] } | undefined {
  checkRounds(input, opts.rounds);
  const { table, valid } = framingTableOf(input, opts.rounds, opts.factors ?? []);
  if (levels(table, 'framing').length < 2) {
    if (opts.rounds) logger.warn(pipelineMsg.roundsOneFraming(input.path));
    return undefined;
  }
  const settings = directRunSettings({ ...opts, store: input.path }, table, logger);
  const missing = missingPlannedCell(table, settings.base, settings.alt);
  if (missing) throw new UserError(analyzeMsg.missingPlannedCell(input.path, missing.model, missing.game, missing.framing, levels(table, 'framing')));
  const analysis = twoFraming.analyze(table, settings, logger);
  const provenance = { path: input.path, sha256: input.sha256, kind: input.kind };
  const a = (input as RepeatedStoreDecisions).adaptive; // an adaptive run: metrics.json's `adaptive` block (in matches, with the calls)
  const tableFiles = twoFraming.tables.files(reportsDir, analysis, provenance, { command, rounds: rangeText(opts.rounds) ?? 'all', cluster: 'match',
    ...(a ? { adaptive: { ...adaptive.metrics(a.rule, a.statuses), unit: 'match', ...(a.calls ? { calls: a.calls } : {}) } } : {}) }, names);
  const verification = twoFraming.verify({
    analysis,
    expectedDecisions: { value: valid, source: `valid decisions of ${opts.rounds ? `rounds ${roundsText(opts.rounds)}` : 'every round'}` },
    tables: twoFraming.tables.csvNames(tableFiles),
    grid: 'as-played', // each model meets the opponents it met (docs/methods.md §21)
  });
  const files = [...tableFiles, ...twoFraming.tables.verificationFiles(reportsDir, verification)];
  return { result: { analysis, verification, table3: twoFraming.tables.table3(analysis) }, files };
}

/** The chosen factors, each a factor of some decision and not a column of the tables; UserError (one line) otherwise. */
function checkedFactors(input: RepeatedInput, factors: readonly string[] = []): readonly string[] {
  if (factors.length === 0) return factors;
  const known = knownFactors(input);
  for (const f of factors) {
    if (!known.includes(f) || RESERVED_COLUMNS.includes(f)) throw new UserError(pipelineMsg.unknownDecisionFactor(input.path, f, known));
  }
  return [...new Set(factors)];
}

/** Column names of the repeated tables a factor may not take. */
const RESERVED_COLUMNS = ['model', 'game', 'framing', 'opponent', 'match', 'round', 'seat', 'previous', 'n', 'matches', 'decisions', 'cooperation', 'lo', 'hi'];

/** The regenerate command: the source, the bootstrap, the rounds and (with two framings) the framing pair. */
function commandOf(input: RepeatedDecisions, opts: AnalyzeRepeatedOptions, seed: number, reps: number): string {
  const src = opts.sourceArgs ?? { positional: [input.path], flags: {} };
  return regenerateCommand('analyze', src.positional, {
    ...src.flags, factor: opts.factors?.length ? opts.factors : undefined, players: opts.players === 'all' ? 'all' : undefined, names: opts.namesFile, seed,
      reps, rounds: rangeText(opts.rounds), base: opts.base, alt: opts.alt, attenuation: opts.attenuation,
    interval: opts.clusterInterval ?? (opts.interval === 'bca' ? 'bca' : undefined), simultaneous: opts.simultaneous === true,
    comprehensionThreshold: opts.comprehensionThreshold, latexWidth: opts.latexWidth,
  });
}

/** An adaptive repeated run (its units' matches stopped by a rule): reports/adaptive.csv and its note. */
function adaptiveMatchFiles(input: RepeatedInput, reportsDir: string, logger: Logger): OutputFile[] {
  const a = (input as RepeatedStoreDecisions).adaptive;
  if (!a) return [];
  const rows = adaptive.rows(a.rule, a.statuses);
  const t = adaptive.totals(a.rule, rows);
  logger.info(pipelineMsg.adaptiveMatchAnalysis(a.rule.method, t.early, rows.length, t.used, t.fixed, a.calls?.used ?? 0, a.calls?.fixed ?? 0));
  return [{ path: join(reportsDir, 'adaptive.csv'), content: adaptive.csv(a.rule, rows) }];
}

/** The analysis and its table files (no figures, no report), nothing written: what `analyzeRepeated` adds its presentation to. */
export function repeatedTables(source: RepeatedInput, opts: AnalyzeRepeatedOptions): RepeatedResult {
  const logger = opts.logger ?? silentLogger;
  const names = readDisplayNames({ source: source.names, sourceBlock: source.namesBlock, given: opts.names, file: opts.namesFile, warn: (m) => logger.warn(m),
    targets: inputNameTargets(source) });
  const input = choosePlayersOf(source, opts.players, names);
  if (!anyValid(input)) throw new UserError(analyzeMsg.noValidTrials(input.path));
  if (input.synthetic) logger.warn(analyzeMsg.synthetic());
  const seed = opts.seed ?? DEFAULTS.seed, reps = opts.reps ?? DEFAULTS.reps;
  const outDir = resolve(opts.out ?? defaultAnalyzeOut(input.path));
  const reportsDir = join(outDir, 'reports');
  const factors = checkedFactors(input, opts.factors);
  const command = commandOf(input, { ...opts, factors }, seed, reps);
  const two = twoFramingOf(input, { ...opts, factors }, reportsDir, command, logger, names); // its input errors come before the bootstrap of the rounds
  const analysis = repeated.analyzeCells(repeatedCellsOf(input, factors), { seed, reps, ...(factors.length ? { factors } : {}),
    ...(Object.keys(names).length ? { names } : {}),
    ...(opts.clusterInterval ? { interval: opts.clusterInterval } : {}) }, logger);
  const models = repeated.tables.models(analysis);
  for (const note of [repeated.thinNote(analysis), repeated.fewNote(analysis)]) if (note) logger.warn(note);
  const seen = (k: 'model' | 'game' | 'framing') => [...new Set(input.decisions.map((d) => d[k]))];
  const order = { models: seen('model'), games: seen('game'), framings: seen('framing') };
  const understood = comprehensionResult(opts.probes, order, two?.result.analysis, opts.comprehensionThreshold, logger);
  const named = withNamedLatex(two?.files ?? [], reportsDir, two?.result.analysis, names, latexOf(opts));
  const files = labelSynthetic([...repeated.tables.files(reportsDir, analysis, input, command, models, latexOf(opts)),
    ...withComprehensionFiles(named, reportsDir, two?.result.analysis, understood), ...adaptiveMatchFiles(input, reportsDir, logger)], decisionsOrigin(input));
  return { kind: 'repeated', input, analysis, models, twoFraming: two?.result, files, outDir, reportsDir, command,
    ...(understood ? { comprehension: understood } : {}) };
}
