/**
 * samegame as a library: the documented API (docs/architecture.md "Library"). The CLI composes
 * the same functions; everything not listed here is internal and may change.
 */

// The common currency: cells keyed by factor levels, binary counts or per-trial probabilities.
export { cellId, cellRate, cellSize, isDegenerate, levels, type Cell, type CellTable, type Observations, type BinaryObservations, type ProbabilityObservations,
  type ClusteredObservations } from './core/cells.js';
export { stat, statLabel, POOLED } from './core/names.js';
export { UserError } from './core/errors.js';
export { displayNames, mergeNames, shown, unusedNames, type DisplayNames, type NameTargets } from './core/display-names.js';
export { fileNumber, jsonText, FILE_DIGITS } from './core/format.js';
export { MemoryLogger, silentLogger, type Logger } from './core/logger.js';
export { CANONICAL_GAMES, canonicalGame, type Action, type Game } from './core/games.js';
// Repeated play, whatever its source (a repeated run's store, a published log): decisions and their cell table (clustered by match).
export { decisionsTable, framingCells, SELF_OPPONENT, type RepeatedDecision, type RepeatedDecisions, type DecisionProvenance, type RoundRange,
  type DecisionsTableOptions } from './core/decisions.js';
export type { Check, CheckStatus, VerificationReport } from './core/checks.js';

// Pure numerics.
export { binaryEntropy, jsdBernoulli, robustness2 } from './stats/jsd.js';
export { streamFor, type RandomSource } from './stats/rng.js';
export { BinomialSampler } from './stats/binomial.js';
export { bootstrap, bcaIntervals, cellJackknife, type Estimand, type BootstrapOptions, type BootstrapResult, type Interval, type IntervalMethod, type StatInfo,
  type StatKind } from './stats/bootstrap.js';
export { groupBootstrap, type ClusterGroup, type GroupBootstrapResult } from './stats/group-bootstrap.js';
export { bcaInterval, binaryJackknife, valuesJackknife, jackknifeAcceleration, type CellJackknife } from './stats/bca.js';
export { normalCdf, normalQuantile } from './stats/normal.js';
export { combineEstimands } from './stats/combine.js';
export { leaveOneClusterOut } from './stats/jackknife.js';
export { cr2Contrast, type ClusterColumn, type ContrastTerm, type ContrastResult } from './stats/cluster-robust.js';
export { CONFSEQ_METHODS, CONFSEQ_METHOD_IDS, type ConfSeqMethodId } from './stats/confseq/registry.js';
export { sequenceBounds } from './stats/confseq/intersect.js';
export type { ConfSeqMethod, ConfSeqSettings, SequenceState } from './stats/confseq/types.js';
export { cellStatus, type StopRule, type CellStatus, type StopReason } from './stats/confseq/stop-rule.js';
export { simulateRule, type RuleSimulation } from './stats/confseq/simulate.js';
export { clusterRateInterval, clusterDifferenceInterval, clusterLinearInterval, clusterSmoothInterval, MIN_CLUSTERS, FEW_CLUSTERS, type ClusterInterval,
  type ClusteredIntervalMethod } from './stats/cluster-intervals.js';
export { tQuantile, betaQuantile, betaCdf } from './stats/t-beta.js';
export { chi2Cdf, chi2Sf, ncChi2Cdf, noncentralityInterval } from './stats/chi2.js';
export { framingTest, gStatistic, jsdScale, type FramingTest, type FramingPairCounts } from './stats/framing-test.js';
export { wilsonInterval, moverInterval, type WeightedRate } from './stats/wilson.js';
export { supTBand, type SupTBand } from './stats/sup-t.js';
export { fitUnivariate, META_DEFAULTS, type MetaSettings, type MetaTest, type Pooling, type UnivariateFit, type Coefficient } from './stats/meta/univariate.js';
export { tau2Interval, type Tau2Interval } from './stats/meta/tau2-interval.js';
export { leaveOneOutEffects, type LeaveOneOutFit } from './stats/meta/leave-one-out.js';
export { fitMultilevel, type MultilevelFit } from './stats/meta/multilevel.js';
export { multilevelIntervals, type MultilevelIntervals, type VarianceInterval } from './stats/meta/multilevel-profile.js';
export { fitMultilevelRegression, type MultilevelRegression } from './stats/meta/multilevel-regression.js';
export { influenceDiagnostics, type InfluenceRow } from './stats/meta/influence.js';
export { regtest, ranktest, petPeese, REGTEST_PREDICTORS, type Regtest, type RegtestPredictor, type PetPeese } from './stats/meta/small-study.js';
export { trimfill, type Trimfill, type TrimfillEstimator } from './stats/meta/trimfill.js';
export { TAU2_ESTIMATORS, TAU2_METHODS, type Tau2Method, type Tau2Estimator } from './stats/meta/tau2.js';
export { countsEffect, ratesEffect, EFFECT_MEASURES, type EffectMeasure, type Effect } from './stats/meta/effect-size.js';

// Readers (sources).
export { readRates, type RatesInput, type RateRow, type ReadRatesOptions, type RatesKind, PLANNED_PAIR } from './sources/rates-csv.js';
export { readTrials, foldExtraFactors, type TrialsInput, type ReadTrialsOptions, type TrialOutcome } from './sources/trials.js';
export { readDigitized, type DigitizedInput, type DigitizedPoint, type ReadDigitizedOptions } from './sources/digitized/index.js';
export { readInput, type AnalysisInput, type InputChoice } from './sources/input.js';
export { storeTable, chooseOneShotRun, type StoreTable } from './sources/store.js';
export { nameTargets, parseNames, readDisplayNames, readNamesFile, type DisplayNamesOptions } from './sources/names-file.js';
export { latexTable, latexEscape, latexDocument, type LatexTable, type LatexCell } from './render/latex.js';
export { readRepeatedStore, type RepeatedStoreOptions } from './sources/repeated-store.js';
export {
  readLogDecisions, resolveLogFormat, parseRoundRange, recognizeLogFormat, parseLogFormat, loadLogFormat, formatProblems, logFormatJsonSchema,
  BUILTIN_LOG_FORMATS, type BuiltinLogFormatId, type LogFormat, type ReadLogOptions,
} from './sources/logs/index.js';
export { readLogTrials, type LogInputChoice } from './sources/logs/table.js';
export {
  readPublished, parsePublished, SHIPPED_PUBLISHED, PUBLISHED_TABLES, type PublishedValues, type PublishedRow, type PublishedTable,
} from './sources/published.js';

// Estimands and analyses.
export {
  analyzeTwoFraming, twoFramingEstimand, twoFramingLayout, familyEstimand, familyLayout, lambdaEstimand, verifyTwoFraming,
  TWO_FRAMING_DEFAULTS, type TwoFramingAnalysis, type TwoFramingSettings, type TwoFramingLayout, type FamilyLayout,
} from './analyses/two-framing/index.js';
export {
  selectiveEstimand, selectiveLayout, selectiveVerdict, surfaceSensitivity, worldResponsiveness, paraphraseInvariance,
  directionalSensitivity, type SelectiveAnalysis, type SelectiveRow, type VerdictThresholds,
} from './analyses/selective/index.js';
export { planTrials, type PlanOptions, type PlanResult } from './analyses/precision/index.js';
export { compareCells, type Comparison } from './analyses/compare/index.js';
export {
  compareWithPublished, judge, reproductionCheck, reproductionCsv, reproductionSentence, VERDICTS,
  type Reproduction, type ReproductionRow, type Verdict, type VerdictRule, type VerdictSettings,
} from './analyses/reproduction/index.js';
export { coverageStudy, truthRates, type CoverageMethod, type CoverageResult, type CoverageRow, type CoverageTruth } from './analyses/coverage/index.js';
export { meta as metaAnalysis, type EffectRow, type MetaAnalysis, type MetaAnalysisSettings, type PooledRow, type MultilevelRow,
  type Manifest } from './analyses/meta/index.js';
export { readEffects, type EffectTable, type EffectTableRow } from './sources/effects-csv.js';
export { repeated, type RepeatedAnalysis, type RepeatedCell, type CellRow, type RoundRow, type ReactionRow,
  type EndGameRow } from './analyses/repeated/index.js';

// Commands: one function per command of the CLI, each the whole pipeline (source → the kind's
// analyses → render → files written as one atomic set), taking one options object and returning
// its result; what the CLI prints goes to `logger.print`.
export { reproduce, type ReproduceCommandOptions } from './commands/reproduce-outputs.js';
export { DEFAULTS, type ReproduceOptions, type ReproduceResult } from './commands/reproduce.js';
export { report } from './commands/report.js';
export { analyze, type AnalyzeOptions, type AnalyzeResult, type AnyAnalysis, type RunKind } from './commands/analyze.js';
export type { RepeatedResult, RepeatedTwoFraming } from './commands/pipeline/repeated.js';
export { audit, type AuditOptions, type AuditResult, type AuditSettings } from './commands/audit.js';
export { exportTrials, type ExportOptions, type ExportResult } from './commands/export-store.js';
export { sql, type SqlOptions } from './commands/sql.js';
export type { ExportFormat } from './commands/export.js';
export { coverage, type CoverageOptions, type CoverageCommandResult } from './commands/coverage.js';
export { plan, PLAN_DEFAULTS, type PlanOptions as PlanCommandOptions, type PlanCommandResult } from './commands/plan.js';
export { run, RUN_DEFAULTS, type RunOptions, type RunResult } from './commands/run.js';
export { preregister, type PreregisterOptions } from './commands/preregister.js';
export { replay, type ReplayOptions, type ReplayResult, type ReplayDifference } from './commands/replay.js';
export { capsule, type CapsuleOptions } from './commands/capsule.js';
export { meta } from './commands/meta-outputs.js';
export type { MetaOptions, MetaResult } from './commands/meta.js';
export { init, INIT_KINDS, type InitKind, type InitOptions } from './commands/init.js';

// Direct runs: designs, the provider interface, the runner and the trial store.
export { loadDesign, parseDesign, expandDesign, designHash, type Design, type DesignModel } from './live/design/design.js';
export {
  ProviderError, type Provider, type ProviderRequest, type ProviderResponse, type ProviderErrorKind, type ModelSpec, type TrialSpec, type TrialRecord,
} from './live/types.js';
export {
  ProviderPool, providerIds, BUILTIN_PROVIDERS, BUILTIN_PROVIDER_IDS,
  type BuiltinProviderId, type ProviderFactory, type ProviderSettings, type ResolvedProviderSettings,
} from './live/providers/registry.js';
export { loadPlugins, type ProviderModule } from './live/providers/plugins.js';
export { runBatches, type BatchRunOptions, type BatchSummary } from './live/batch/run.js';
export { planChunks, BATCH_LIMITS, type BatchLimits } from './live/batch/chunks.js';
export { runTrials, RUNNER_DEFAULTS, type RunnerOptions, type RunSummary } from './live/runner/runner.js';
export { runWaves, type WavesSummary } from './live/runner/waves.js';
export { TrialStore, type RunInfo } from './live/store/store.js';
export { storedRunKind, designKind } from './live/store/run-kind.js';
export { designWarnings } from './live/design/design.js';
export { parseTemplate, fillParts, type TemplatePart, type ParsedTemplate } from './live/prompts/template.js';
export { TEMPLATE_KINDS, type TemplateKind } from './live/prompts/placeholders.js';
export { renderFraming, type Framing } from './live/prompts/index.js';
export { framingMeanings, factMeanings, numberWarnings, payoffCheck, type PayoffCheck } from './live/prompts/payoff/index.js';
export { expandProbes, expectedAnswer, probeOrder, PROBE_QUESTIONS, type ProbeQuestion } from './live/probes/questions.js';
export { probeAnswer, scoreProbe, type ProbeScore } from './live/probes/score.js';
export {
  comprehensionRows, comprehensionVerdicts, NOT_SHOWN, type ComprehensionRow, type ComprehensionVerdict, type ScoredProbe,
} from './live/probes/comprehension.js';
export { runProbes, planProbes } from './live/probes/run.js';
export { storedProbes, scoredProbes, type StoredProbe } from './live/probes/store.js';
export { comprehension, type Comprehension } from './analyses/comprehension/index.js';
export { runMatches, type MatchRunOptions, type MatchRunSummary } from './live/repeated/engine.js';
export { STRATEGIES, STRATEGY_IDS, type Strategy, type StrategyId } from './live/repeated/strategies.js';
