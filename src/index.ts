/**
 * samegame as a library: the documented API (docs/architecture.md "Library"). The CLI composes
 * the same functions; everything not listed here is internal and may change.
 */

// The common currency: cells keyed by factor levels, binary counts or per-trial probabilities.
export { cellId, cellRate, cellSize, isDegenerate, levels, type Cell, type CellTable, type Observations, type BinaryObservations, type ProbabilityObservations } from './core/cells.js';
export { stat, statLabel, POOLED } from './core/names.js';
export { UserError } from './core/errors.js';
export { MemoryLogger, silentLogger, type Logger } from './core/logger.js';
export { CANONICAL_GAMES, canonicalGame, type Action, type Game } from './core/games.js';
export type { Check, VerificationReport } from './core/checks.js';

// Pure numerics.
export { binaryEntropy, jsdBernoulli, robustness2 } from './stats/jsd.js';
export { streamFor, type RandomSource } from './stats/rng.js';
export { BinomialSampler } from './stats/binomial.js';
export { bootstrap, type Estimand, type BootstrapOptions, type BootstrapResult, type Interval } from './stats/bootstrap.js';
export { combineEstimands } from './stats/combine.js';

// Readers (sources).
export { readRates, PLANNED_PAIR, type RatesInput, type RateRow, type ReadRatesOptions } from './sources/rates-csv.js';
export { storeTable, pickRun, type StoreTable } from './sources/store.js';

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

// Commands as functions: source → analyses → files.
export { reproduce, DEFAULTS, type ReproduceOptions, type ReproduceResult } from './commands/reproduce.js';
export { reproduceWithFigures } from './commands/reproduce-outputs.js';
export { analyze, analyzeTwoFramingRun, analyzeSelectiveRun, type AnalyzeOptions, type AnalyzeResult } from './commands/analyze.js';
export { analyzeWithFigures, isSelectiveAnalysis, type AnyAnalysis } from './commands/analyze-with-figures.js';
export { audit, auditCompute, type AuditOptions, type AuditResult, type AuditSettings } from './commands/audit.js';
export { exportTrials, type ExportFormat } from './commands/export.js';

// Direct runs: designs, the provider interface, the runner and the trial store.
export { loadDesign, parseDesign, expandDesign, designHash, type Design, type DesignModel } from './live/design/design.js';
export {
  ProviderError, type Provider, type ProviderRequest, type ProviderResponse, type ProviderErrorKind, type ModelSpec, type TrialSpec, type TrialRecord,
} from './live/types.js';
export { ProviderPool, providerIds } from './live/providers/registry.js';
export { runTrials, RUNNER_DEFAULTS, type RunnerOptions, type RunSummary } from './live/runner/runner.js';
export { TrialStore, type RunInfo } from './live/store/store.js';
