/** The provenance audit of reconstructed rates: consistency, reading error, tipping points, attenuation, influence, Monte Carlo error. */
import type { RatesInput } from '../../sources/rates-csv.js';
import { framingTipping, type FramingTipping } from './framing-tipping.js';
import type { OutputFile } from '../../core/atomic.js';
import { UserError } from '../../core/errors.js';
import { msg } from '../../core/messages/common.js';
import { progressOf, silentLogger, type Logger } from '../../core/logger.js';
import { POOLED, stat } from '../../core/names.js';
import { analyzeTwoFraming, twoFramingLayout, TWO_FRAMING_DEFAULTS, type TwoFramingAnalysis, type TwoFramingSettings } from '../two-framing/index.js';
import { checkConsistency, consistencyFlags, type CellConsistency } from './consistency.js';
import type { HeadlineKind } from './replicate-state.js';
import { readingErrorResult, type RangeFound, type ReadingErrorResult, type ReadingRanges } from './reading-error.js';
import { tippingPoints, type IntervalFinding, type TippingResult } from './tipping.js';
import { searchTasks, SearchWorkspace, type SearchJob, type SearchTask, type SearchTaskResult } from './search-tasks.js';
import { attenuationSweep, type SweepRow } from './attenuation.js';
import type { InfluenceResult } from './influence.js';
import { defaultBatches, mcErrorOfQuantile, type McError } from '../../stats/mc-error.js';
import { degenerateCells, type DegenerateAudit } from './degenerate.js';
import { sweepFigure } from './figures.js';
import type { Figure } from '../../render/figure.js';
import { auditedColumns } from '../../stats/table3.js';
import { auditMsg } from './messages.js';

export const AUDIT_DEFAULTS = {
  ...TWO_FRAMING_DEFAULTS,
  /** ±K counts of reading error: about one pixel on a 300-pixel axis when n = 300. */
  readingError: 1,
  /** Replicates for the tipping-point search; the found tables are checked at full replicates. */
  searchReps: 2000,
  /** Monte Carlo error target for interval endpoints. */
  mcTarget: 0.001,
  /**
   * Largest table the audit takes (cells). Its searches evaluate every cell's neighbouring counts
   * against the pooled statistics, so their cost grows faster than the square of the cells: 24
   * cells take about 2 s, 240 about 8 s and 480 about 23 s on two threads (10 s and 38 s on one).
   * Above it the audit refuses before any work (`--max-cells` raises it).
   */
  maxCells: 500,
} as const;

export interface AuditSettings extends TwoFramingSettings {
  readonly readingError: number;
  /** Per-cell count ranges (a digitized figure's, at ±K px) used instead of ±readingError counts. */
  readonly readingRanges?: ReadingRanges;
  readonly searchReps: number;
  readonly mcTarget: number;
  readonly maxCells: number;
}

export interface EndpointMcError { readonly group: string; readonly kind: HeadlineKind; readonly lo: McError; readonly hi: McError }

export interface AuditResult {
  readonly settings: AuditSettings;
  readonly input: RatesInput;
  readonly analysis: TwoFramingAnalysis;
  readonly consistency: readonly CellConsistency[];
  readonly readingError: ReadingErrorResult;
  readonly tipping: readonly TippingResult[];
  /** The tipping point of the pooled R = 1 test (binary cells). */
  readonly framingTipping?: FramingTipping;
  readonly attenuation: readonly SweepRow[];
  readonly influence: InfluenceResult;
  readonly mcError: readonly EndpointMcError[];
  readonly degenerate: readonly DegenerateAudit[];
  readonly files: readonly OutputFile[];
}

/** Settings with defaults applied; flag combinations a user can get wrong end in a UserError. */
export function auditSettings(o: Partial<AuditSettings>): AuditSettings {
  const s: AuditSettings = {
    seed: o.seed ?? AUDIT_DEFAULTS.seed, reps: o.reps ?? AUDIT_DEFAULTS.reps,
    attenuation: o.attenuation ?? AUDIT_DEFAULTS.attenuation, base: o.base ?? AUDIT_DEFAULTS.base, alt: o.alt ?? AUDIT_DEFAULTS.alt,
    readingError: o.readingError ?? AUDIT_DEFAULTS.readingError, searchReps: o.searchReps ?? AUDIT_DEFAULTS.searchReps,
    mcTarget: o.mcTarget ?? AUDIT_DEFAULTS.mcTarget, interval: o.interval ?? 'percentile', maxCells: o.maxCells ?? AUDIT_DEFAULTS.maxCells,
    ...(o.readingRanges ? { readingRanges: o.readingRanges } : {}),
  };
  if (s.base === s.alt) throw new UserError(msg.sameFraming(s.base));
  if (s.reps < 40) throw new UserError(auditMsg.tooFewReps(s.reps));
  return { ...s, searchReps: Math.min(s.searchReps, s.reps) };
}

/** What the audit knows before its searches: the analysis, and the searches as independent tasks. */
export interface AuditStage extends AuditPlan {
  readonly settings: AuditSettings;
  readonly input: RatesInput;
  readonly analysis: TwoFramingAnalysis;
  readonly consistency: readonly CellConsistency[];
  readonly attenuation: readonly SweepRow[];
  /** The calling thread's replicate states: its share of the searches, then the assembly. */
  readonly here: SearchWorkspace;
}

/** The audit's searches: known from the table alone, before any bootstrap (a command may start them on other threads first). */
export interface AuditPlan { readonly job: SearchJob; readonly tasks: readonly SearchTask[] }

export function auditPlan(input: RatesInput, settings: AuditSettings): AuditPlan {
  const cells = input.table.cells.length;
  if (cells > settings.maxCells) throw new UserError(auditMsg.tooManyCells(input.path, cells, settings.maxCells));
  // Reading error applies to counts reconstructed from rates; given counts were not read off a figure.
  const job: SearchJob = {
    table: input.table, layout: twoFramingLayout(input.table, settings.base, settings.alt), reconstructed: input.rows.map((r) => r.reconstructed),
    columns: auditedColumns().map((c) => c.column),
    settings: { ...twoFramingSettings(settings), readingError: settings.readingError, searchReps: settings.searchReps,
      ...(settings.readingRanges ? { readingRanges: settings.readingRanges } : {}) },
  };
  return { job, tasks: searchTasks(job) };
}

const twoFramingSettings = (s: AuditSettings): TwoFramingSettings =>
  ({ seed: s.seed, reps: s.reps, attenuation: s.attenuation, base: s.base, alt: s.alt, interval: s.interval });

/**
 * The audit up to its searches: input checks, consistency, the two-framing analysis and the
 * attenuation sweep. `onFigure` receives the attenuation figure, for a command to draw while the
 * searches run.
 */
export function auditStart(input: RatesInput, settings: AuditSettings, logger: Logger = silentLogger,
  onFigure?: (figure: Figure) => void, plan: AuditPlan = auditPlan(input, settings)): AuditStage {
  const consistency = checkConsistency(input.rows);
  for (const f of consistencyFlags(consistency)) logger.warn(auditMsg.consistencyFlag(input.path, f));
  const analysis = analyzeTwoFraming(input.table, twoFramingSettings(settings), logger);
  const attenuation = attenuationSweep(analysis);
  onFigure?.(sweepFigure(attenuation, analysis));
  return { settings, input, analysis, consistency, attenuation, here: new SearchWorkspace(plan.job), ...plan };
}

/** Run a stage's search tasks on the calling thread; results by task position. */
export function runSearchesHere(stage: AuditStage, onProgress?: (done: number, total: number) => void): SearchTaskResult[] {
  return stage.tasks.map((t, i) => { const r = stage.here.run(t); onProgress?.(i + 1, stage.tasks.length); return r; });
}

/** The audit from its stage and its search results (in any order): the reading error, tipping points, influence and Monte Carlo error. */
export function auditFinish(stage: AuditStage, results: readonly SearchTaskResult[], logger: Logger = silentLogger): Omit<AuditResult, 'files'> {
  const { settings, analysis, job } = stage;
  const full = stage.here.full;
  const reading: RangeFound[] = [];
  const findings: IntervalFinding[] = [];
  let influenceResult!: InfluenceResult; // one task of every job
  for (const r of results) {
    if (r.kind === 'reading') reading[r.index] = r;
    else if (r.kind === 'tipping') findings[r.index] = r.finding;
    else influenceResult = r.influence;
  }
  const readingError = readingErrorResult(settings.readingError, job.table.cells.length, job.reconstructed, () => reading, settings.readingRanges);
  const tipping = tippingPoints(full, { settings: analysis.settings, readingError, reconstructed: job.reconstructed }, findings);
  for (const t of tipping) if (t.verified === false) logger.warn(auditMsg.tippingUnverified(t.id));
  const groups = [...analysis.layout.models, POOLED];
  const batches = defaultBatches(settings.reps);
  const mcError = groups.flatMap((group) => full.columns.map(({ column: kind, names }) => {
    const i = analysis.boot.names.indexOf(stat(names.groupConservative, group));
    const reps = analysis.boot.replicates.subarray(i * analysis.boot.reps, (i + 1) * analysis.boot.reps);
    return { group, kind, lo: mcErrorOfQuantile(reps, 0.025, batches, settings.mcTarget), hi: mcErrorOfQuantile(reps, 0.975, batches, settings.mcTarget) };
  }));
  const framing = framingTipping(analysis, readingError, job.reconstructed);
  return {
    settings, input: stage.input, analysis, consistency: stage.consistency, readingError, tipping, ...(framing ? { framingTipping: framing } : {}),
    attenuation: stage.attenuation, influence: influenceResult, mcError, degenerate: degenerateCells(analysis),
  };
}

/**
 * The audit computation, without I/O, on the calling thread: a read rates file and settings →
 * AuditResult (less the files, which the command renders and writes). A command may run the
 * searches on two threads instead (auditStart, its own runner, auditFinish): the result is the same.
 */
export function auditInput(input: RatesInput, settings: AuditSettings, logger: Logger = silentLogger,
  onFigure?: (figure: Figure) => void): Omit<AuditResult, 'files'> {
  const stage = auditStart(input, settings, logger, onFigure);
  return auditFinish(stage, runSearchesHere(stage, progressOf(logger, 'searches')), logger);
}
