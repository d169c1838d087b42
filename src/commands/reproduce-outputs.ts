import { join, resolve } from 'node:path';
import { styled, type FigureStyle } from '../render/paper-style.js';
import type { OutputFile } from '../core/atomic.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { shown } from '../core/display-names.js';
import { checkOut, failOnChecks, logFiles, writtenPath, type CommandOptions, type FigureOption } from './command-options.js';
import { framingTestText, hasFramingTests, ratesCommand, reproduceTables, table3Text, type ReproduceOptions, type ReproduceResult } from './reproduce.js';
import { verdictFlags } from './expect.js';
import { writeFilesAtomic } from '../core/atomic.js';
import { toolInfo } from '../core/paths.js';
import type { Figure } from '../render/figure.js';
import { figureFiles, FigurePool } from '../render/figure-files.js';
import { warnOmittedFigures } from '../analyses/two-framing/report.js';
import { reproductionFigures, reproductionSection } from '../analyses/reproduction/index.js';
import { fileLinks, figurePaths, filesSection } from '../render/files-section.js';
import { FILE_NOTES } from './file-notes.js';
import { renderReportHtml, type ReportDoc } from '../render/html.js';
import { namedAnalysis, twoFraming, type ReportProvenance } from '../analyses/two-framing/index.js';
import { poolingLines, poolingSections } from './meta-pooling.js';
import { sourceAnalyses } from './source-analyses.js';
import { labelSynthetic, syntheticNotice } from '../core/provenance.js';
import { provenanceSections } from './origin-report.js';

/** The command line that regenerates these outputs. */
export function reproduceCommand(res: ReproduceResult, command = 'reproduce'): string {
  const rep = res.reproduction;
  return ratesCommand(command, res.input, res.analysis.settings, {
    interval: res.analysis.boot.method, expect: rep?.path, ...verdictFlags({ verdictAlpha: rep?.settings.alpha, publishedReps: rep?.settings.publishedReps,
      publishedMethod: rep?.settings.publishedMethod }, rep), names: res.names?.file, pooling: res.pooling, latexWidth: res.latexWidth,
  });
}

/** The input's path, hash, kind and provenance columns with their distinct values. */
export function ratesProvenance(res: ReproduceResult): ReportProvenance {
  return { path: res.input.path, sha256: res.input.sha256, kind: res.input.kind, columns: res.input.provenance };
}

/** The figures of a reproduce result: the two-framing ones, and the reproduction figure when published values were compared. */
export function reproduceFigures(res: ReproduceResult): Figure[] {
  const names = res.names?.map;
  return [...twoFraming.figures(namedAnalysis(res.analysis, names)), ...(res.reproduction ? reproductionFigures(res.reproduction, names) : [])];
}

export function reproduceReportDoc(res: ReproduceResult, figures: readonly Figure[], outDir = '.'): ReportDoc {
  const out = resolve(outDir);
  const links = fileLinks(join(out, 'reports', 'report.html'), [...res.files.map((f) => f.path), ...figurePaths(out, figures)], FILE_NOTES);
  const a = namedAnalysis(res.analysis, res.names?.map); // the report shows display names (--names); its CSVs keep the ids
  const prov = ratesProvenance(res);
  const tool = toolInfo();
  const r = twoFraming.report;
  return {
    title: 'samegame reproduce: Same Game, Different Story',
    subtitle: `Two-framing robustness of ${a.settings.base} vs ${a.settings.alt} from ${res.input.path} (${tool.name} ${tool.version})`,
    ...(res.input.origin.synthetic ? { banner: syntheticNotice(res.input.origin) } : {}),
    sections: [
      r.summary(a, res.verification, prov),
      r.table2(a),
      r.table3(a),
      ...poolingSections(res.pooling, a),
      ...(res.reproduction ? [reproductionSection(res.reproduction, res.names?.map)] : []),
      r.figures(figures, undefined, undefined, twoFraming.omittedFigures(a)),
      r.verification(res.verification),
      ...provenanceSections(r.provenance(prov), res.input.origin),
      ...sourceAnalyses(res.input).sections,
      r.settings(a, reproduceCommand(res)),
      filesSection(links),
    ],
  };
}

/** reports/report.html of a reproduce result (no rendering in Node: the browser draws the figures). */
export function reproduceReportFile(res: ReproduceResult, outDir: string, figures = reproduceFigures(res)): OutputFile {
  return { path: join(resolve(outDir), 'reports', 'report.html'), content: renderReportHtml(reproduceReportDoc(res, figures, outDir)) };
}

/** figures/ (spec, SVG, PNG of each figure) and reports/report.html of a reproduce result. */
export async function reproducePresentationFiles(res: ReproduceResult, outDir: string, logger?: Logger, pool?: FigurePool,
  style?: FigureStyle): Promise<OutputFile[]> {
  const figures = reproduceFigures(res);
  warnOmittedFigures(res.analysis, logger);
  return labelSynthetic([...await figureFiles(figures, resolve(outDir), logger, pool, style), reproduceReportFile(res, outDir, figures)], res.input.origin);
}

/** The options of `reproduce`: the input, the settings, the published values, and figures, logger and dryRun. */
export type ReproduceCommandOptions = ReproduceOptions & FigureOption & Pick<CommandOptions, 'failOnChecks'>;

/**
 * `samegame reproduce`: the tables of `reproduceTables`, the figures (Vega-Lite spec, SVG, PNG)
 * and reports/report.html, all written as one atomic set (`figures: false`: the tables alone), then
 * what the CLI prints through the logger. Rendering lives in src/render; the analysis's figures are
 * drawn on a worker while the checks and the comparison with published values run.
 */
export async function reproduce(opts: ReproduceCommandOptions = {}): Promise<ReproduceResult> {
  checkOut(opts);
  const logger = opts.logger ?? silentLogger;
  if (opts.figures === false) {
    const res = reproduceTables(opts);
    printReproduce(res, logger, opts);
    return res;
  }
  const pool = new FigurePool(); // its worker loads the renderer while the bootstrap runs
  let res: ReproduceResult;
  try {
    res = reproduceTables({ ...opts, dryRun: true, onAnalysis: (a) => { for (const f of twoFraming.figures(a)) pool.prefetch(styled(f, opts.figureStyle)); } });
  } catch (e) {
    pool.abandon();
    throw e;
  }
  const files = [...res.files, ...await reproducePresentationFiles(res, opts.out ?? '.', opts.logger, pool, opts.figureStyle)];
  if (!opts.dryRun) writeFilesAtomic(files);
  const written = { ...res, files };
  printReproduce(written, logger, opts);
  return written;
}

/** What `samegame reproduce` prints: Table 3 (stdout), the R = 1 tests, the files, the notes; the checks (exit 3 with failOnChecks). */
function printReproduce(res: ReproduceResult, logger: Logger, opts: Pick<ReproduceCommandOptions, 'failOnChecks'>): void {
  const rows = res.table3.map((r) => ({ ...r, model: shown(res.names?.map, r.model) }));
  logger.print?.(`${table3Text(rows, res.analysis.settings.attenuation, res.analysis.boot.method, res.analysis.bands?.c)}\n${poolingLines(res.pooling,
    res.analysis)}`);
  if (hasFramingTests(res.analysis)) logger.info(framingTestText(res.analysis));
  logFiles(res.files, logger);
  // What the reading of a log left out (a short match, a game without a cooperative action): warnings, as analyze prints them.
  for (const n of res.notes) logger.warn(n);
  for (const n of res.analysis.boot.notes) logger.warn(n);
  failOnChecks(res.verification, opts);
  if (!res.verification.passed) return;
  logger.info((`verification: ${res.verification.checks.length} checks passed; ${res.verification.degenerate.length} degenerate cells listed ` +
    `in ${writtenPath(res.files, 'reports/verification.md')}`));
  for (const w of res.verification.checks.flatMap((c) => c.warnings ?? [])) logger.warn(w);
}
