import { readInput, type AnalysisInput, type InputChoice } from '../sources/input.js';
import type { FigureStyle } from '../render/paper-style.js';
import type { RatesInput } from '../sources/rates-csv.js';
import { UserError } from '../core/errors.js';
import { trialsMsg } from '../core/messages/trials.js';
import { writeFilesAtomic } from '../core/atomic.js';
import { FigurePool } from '../render/figure-files.js';
import { progressOf, silentLogger, type Logger } from '../core/logger.js';
import { join, resolve } from 'node:path';
import type { VerificationReport } from '../core/checks.js';
import { verifyRates } from './reproduce.js';
import { auditFiles, auditFinish, auditInput, auditPlan, auditSettings, auditStart, type AuditResult, type AuditSettings, type AuditStage } from '../analyses/audit/index.js';
import { defaultSearchThreads, startSearchTasks } from './audit-threads.js';
import type { DigitizedInput } from '../sources/digitized/index.js';
import type { ReadingRanges } from '../analyses/audit/index.js';
import { digitization } from '../analyses/digitization/index.js';
import { digitizedMsg } from '../core/messages/digitized.js';

export interface AuditOptions extends Partial<AuditSettings>, InputChoice {
  out?: string;
  /** `--figure-style paper` (render/paper-style.ts). */
  figureStyle?: FigureStyle;
  logger?: Logger;
  dryRun?: boolean;
  /** Threads for the searches (the calling thread and workers; default: the cores, at most 4). Results do not depend on it. */
  threads?: number;
}

/** Settings with defaults, and the rates file read as counts (input errors before any work). */
function auditRead(opts: AuditOptions): { input: RatesInput; settings: AuditSettings; digitized?: DigitizedInput } {
  // Per-trial data are direct observations: no attenuation unless asked (as reproduce).
  const settings = auditSettings({ ...opts, attenuation: opts.attenuation ?? (opts.trials !== undefined ? 1 : undefined) });
  const read = readInput(opts, settings.base, settings.alt);
  const d = read.digitized;
  if (!d) return { input: asCounts(read), settings };
  // A digitized figure: each count moves within its own range at ±K px (reports/digitization.csv), not ±K counts.
  const readingRanges: ReadingRanges = {
    K: d.pixelError, label: digitization.pixelLabel(d.pixelError),
    down: d.points.map((p) => p.count - p.countLo), up: d.points.map((p) => p.countHi - p.count),
    input: { digitized: d.path, layout: d.layout.path, pixelError: d.pixelError },
    notes: d.calibration.map((c) => digitizedMsg.clickShift(c.axes, c.click, d.pixelError / 2, c.value, c.count)),
  };
  return { input: asCounts(read), settings: { ...settings, readingRanges }, digitized: d };
}

/**
 * The audit computation without writing, on the calling thread: rates file → AuditResult. Input
 * errors are the same as `reproduce`'s (one reader) and are thrown before any work.
 */
export function auditCompute(opts: AuditOptions = {}): Omit<AuditResult, 'files'> {
  const { input, settings, digitized } = auditRead(opts);
  return { ...auditInput(input, settings, opts.logger ?? silentLogger), ...(digitized ? { digitized } : {}) };
}

/** auditCompute with the searches on `opts.threads` threads and the attenuation figure handed to `pool` as soon as it is known. */
async function auditComputeThreaded(opts: AuditOptions, pool: FigurePool): Promise<Omit<AuditResult, 'files'> & { digitized?: DigitizedInput }> {
  const logger = opts.logger ?? silentLogger;
  const { input, settings, digitized } = auditRead(opts);
  // The searches need only the table: the workers start on them while this thread bootstraps.
  const plan = auditPlan(input, settings);
  const run = startSearchTasks(plan.job, plan.tasks, opts.threads ?? defaultSearchThreads());
  let stage: AuditStage;
  try {
    stage = auditStart(input, settings, logger, (f) => pool.prefetch(f), plan);
  } catch (e) {
    run.cancel();
    throw e;
  }
  return { ...auditFinish(stage, await run.finish(stage.here, progressOf(logger, 'searches')), logger), ...(digitized ? { digitized } : {}) };
}

/**
 * The audit works on counts: a per-trial file of C/D or 0/1 decisions becomes one row of observed
 * counts per cell; probabilities and clustered decisions have no counts to move, and are refused.
 */
function asCounts(input: AnalysisInput): RatesInput {
  if (input.rates) return input.rates;
  const t = input.trials!;
  if (t.outcome === 'p_cooperate' || t.clusterColumn !== undefined) throw new UserError(trialsMsg.auditNeedsCounts(input.path, t.kind));
  const rows = input.table.cells.map((cell, i) => ({ line: t.firstLines[i], cell, reconstructed: false }));
  return { path: input.path, sha256: input.sha256, table: input.table, rows, provenanceColumns: [], kind: input.kind };
}

/**
 * `samegame audit`: compute, then write reports/audit.md, audit.json, audit.html and the audit
 * figures as one atomic set (nothing is written when the input is bad or a step fails).
 */
export async function audit(opts: AuditOptions = {}): Promise<AuditResult & { verification: VerificationReport }> {
  // Figures are drawn on a second thread while the searches run (the attenuation figure is known first).
  const pool = new FigurePool();
  let res: Omit<AuditResult, 'files'> & { digitized?: DigitizedInput };
  try {
    res = await auditComputeThreaded(opts, pool);
  } catch (e) {
    pool.abandon();
    throw e;
  }
  const files = [...await auditFiles(res, opts.out ?? '.', opts.logger, pool, opts.figureStyle),
    ...(res.digitized ? digitization.files(join(resolve(opts.out ?? '.'), 'reports'), res.digitized) : [])];
  if (!opts.dryRun) writeFilesAtomic(files);
  // The same Appendix C checks as reproduce (same analysis): a failed check exits 3 in both.
  const input: AnalysisInput = { path: res.input.path, sha256: res.input.sha256, kind: res.input.kind, table: res.input.table, rates: res.input, provenance: [] };
  const { verification } = verifyRates(input, res.analysis, join(resolve(opts.out ?? '.'), 'reports'));
  return { ...res, files, verification };
}

export { AUDIT_DEFAULTS, auditSettings, type AuditResult, type AuditSettings } from '../analyses/audit/index.js';
