import { attenuationOf, inputCounts, inputNotes, readInput, sourceOf, type AnalysisInput, type InputChoice } from '../sources/input.js';
import type { FigureStyle } from '../render/paper-style.js';
import type { RatesInput } from '../sources/rates-csv.js';
import type { OutputFile } from '../core/atomic.js';
import { FigurePool } from '../render/figure-files.js';
import { progressOf, silentLogger } from '../core/logger.js';
import { join, resolve } from 'node:path';
import type { VerificationReport } from '../core/checks.js';
import { audit as auditAnalysis, auditFiles, auditFinish, auditInput, auditPlan, auditSettings, auditStart, type AuditResult, type AuditSettings,
  type AuditStage } from '../analyses/audit/index.js';
import { defaultSearchThreads, startSearchTasks } from './audit-threads.js';
import { consistencyFlags } from '../analyses/audit/consistency.js';
import { isExactMinimum } from '../analyses/audit/tipping.js';
import { sourceAnalyses, verifyRates, type SourceAnalysisOutputs } from './source-analyses.js';
import { checkOut, logFiles, writtenPath, type CommandOptions, type FigureOption } from './command-options.js';
import { finish } from './pipeline/write.js';
import { commandsMsg } from './messages.js';
import { fileOrigin } from '../sources/origin.js';

export interface AuditOptions extends Partial<AuditSettings>, InputChoice, CommandOptions, FigureOption {
  out?: string;
  /** `--figure-style paper` (render/paper-style.ts). */
  figureStyle?: FigureStyle;
  /** Threads for the searches (the calling thread and workers; default: the cores, at most 4). Results do not depend on it. */
  threads?: number;
}

/** What the audit reads: the input as counts, the settings with defaults, and the analyses its kind adds. */
interface AuditRead { readonly input: RatesInput; readonly settings: AuditSettings; readonly added: SourceAnalysisOutputs }

/** Settings with defaults, and the input read as counts (input errors before any work). */
function auditRead(opts: AuditOptions): AuditRead {
  if (opts.base !== undefined && opts.base === opts.alt) auditSettings(opts); // the same framing twice: refused before reading
  const read = readInput(opts, opts.base, opts.alt);
  const settings = auditSettings({ ...opts, ...read.pair, attenuation: attenuationOf(sourceOf(opts), opts.attenuation) });
  // What the reading of a log left out (a short match …), as reproduce and report warn it.
  for (const n of inputNotes(read)) opts.logger?.warn(n);
  const added = sourceAnalyses(read);
  const { readingRanges } = added;
  return { input: inputCounts(read), settings: readingRanges ? { ...settings, readingRanges } : settings, added };
}

/**
 * The audit computation without writing, on the calling thread: rates file → AuditResult. Input
 * errors are the same as `reproduce`'s (one reader) and are thrown before any work.
 */
export function auditCompute(opts: AuditOptions = {}): Omit<AuditResult, 'files'> {
  const { input, settings } = auditRead(opts);
  return auditInput(input, settings, opts.logger ?? silentLogger);
}

/** auditCompute with the searches on `opts.threads` threads and the attenuation figure handed to `pool` (if any) as soon as it is known. */
async function auditComputeThreaded(opts: AuditOptions, pool?: FigurePool): Promise<Omit<AuditResult, 'files'> & { added: SourceAnalysisOutputs }> {
  const logger = opts.logger ?? silentLogger;
  const { input, settings, added } = auditRead(opts);
  // The searches need only the table: the workers start on them while this thread bootstraps.
  const plan = auditPlan(input, settings);
  const run = startSearchTasks(plan.job, plan.tasks, opts.threads ?? defaultSearchThreads());
  let stage: AuditStage;
  try {
    stage = auditStart(input, settings, logger, (f) => pool?.prefetch(f), plan);
  } catch (e) {
    run.cancel();
    throw e;
  }
  return { ...auditFinish(stage, await run.finish(stage.here, progressOf(logger, 'searches')), logger), added };
}

/**
 * `samegame audit`: compute, then write reports/audit.md, audit.json, audit.html and the audit
 * figures as one atomic set (nothing is written when the input is bad or a step fails; `figures:
 * false`: audit.md and audit.json alone, nothing rendered), then print the summary (logger.print),
 * the files and the time taken.
 */
export async function audit(opts: AuditOptions = {}): Promise<AuditResult & { verification: VerificationReport }> {
  checkOut(opts);
  const t0 = performance.now();
  // Figures are drawn on a second thread while the searches run (the attenuation figure is known first).
  const pool = opts.figures === false ? undefined : new FigurePool();
  let res: Omit<AuditResult, 'files'> & { added: SourceAnalysisOutputs };
  try {
    res = await auditComputeThreaded(opts, pool);
  } catch (e) {
    pool?.abandon();
    throw e;
  }
  const { added, ...result } = res;
  const reports = join(resolve(opts.out ?? '.'), 'reports');
  const files = [...pool ? await auditFiles(result, opts.out ?? '.', opts.logger, pool, opts.figureStyle) : auditTables(result, reports),
    ...added.files(reports)];
  // The same Appendix C checks as reproduce (same analysis): a failed check exits 3 in both.
  const input: AnalysisInput = { path: result.input.path, sha256: result.input.sha256, kind: result.input.kind, table: result.input.table,
    data: { kind: 'rates', rates: result.input }, provenance: [],
    origin: fileOrigin(result.input.path, result.input.sha256), pair: { base: result.analysis.settings.base, alt: result.analysis.settings.alt } };
  const { verification } = verifyRates(input, result.analysis, reports);
  return finish({ result: { ...result, files, verification }, files, checks: verification, print: (logger) => {
    logger.print?.(`${auditSummary({ ...result, files })}\n`);
    logFiles(files, logger);
    logger.info(commandsMsg.stage('audit', (performance.now() - t0) / 1000));
  } }, opts);
}

/** reports/audit.md and audit.json: the audit without its figures and HTML report. */
const auditTables = (r: Omit<AuditResult, 'files'>, reports: string): OutputFile[] => [
  { path: join(reports, 'audit.md'), content: auditAnalysis.report.markdown(r) },
  { path: join(reports, 'audit.json'), content: auditAnalysis.report.json(r) },
];

/** The audit as the terminal summarises it: consistency, then each statement's tipping point and reading error. */
export function auditSummary(res: AuditResult): string {
  const lines = [commandsMsg.summaryConsistency(consistencyFlags(res.consistency).length, res.consistency.filter((c) => c.status !== 'no-rate').length,
    writtenPath(res.files, 'reports/audit.md'))];
  let explained = false; // the first "≤" says what it means
  for (const t of res.tipping) {
    const bound = t.changes !== undefined && !isExactMinimum(t.method);
    const n = t.changes === undefined ? (t.holds ? 'no overturning table found' : 'does not hold')
      : (`${bound ? '≤ ' : ''}${t.changes} count ` +
        `changes${bound && !explained ? ' (≤: an upper bound, the fewest the search found; fewer may overturn it)' : ''}`);
    explained ||= bound;
    lines.push(`${t.statement}: ${n}; ${res.readingError.given ? 'counts given, no reading error'
        : `reading error ${res.readingError.label} ${t.readingError.overturned ? 'CAN' : 'cannot'} overturn it`}`);
  }
  // Whether framing changes behaviour, read from the R = 1 test (docs/methods.md §8.5, §10.3): its tipping point is exact.
  const f = res.framingTipping;
  if (f) {
    const bound = f.atMost ? 'an upper bound: a sparse pair\'s exact test may fall sooner' : 'exact';
    const n = !f.holds ? 'does not hold' : f.changes === undefined ? (f.note ?? 'no overturning table found')
      : `${f.atMost ? '≤ ' : ''}${f.changes} count changes (${bound})`;
    lines.push(`${f.statement}: ${n}; ${res.readingError.given ? 'counts given, no reading error'
        : `reading error ${res.readingError.label} ${f.readingError.overturned ? 'CAN' : 'cannot'} overturn it`}`);
  }
  return lines.join('\n');
}

export { AUDIT_DEFAULTS, auditSettings, type AuditResult, type AuditSettings } from '../analyses/audit/index.js';
