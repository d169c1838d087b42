import { resolve } from 'node:path';
import { styled, type FigureStyle } from '../render/paper-style.js';
import type { OutputFile } from '../core/atomic.js';
import type { Logger } from '../core/logger.js';
import { shown } from '../core/display-names.js';
import { checkOut, logFiles, writtenPath, type CommandOptions, type FigureOption } from './command-options.js';
import { framingTestText, hasFramingTests, reproduceTables, table3Text, type ReproduceOptions, type ReproduceResult } from './reproduce.js';
import { figureFiles, FigurePool } from '../render/figure-files.js';
import { warnOmittedFigures } from '../analyses/two-framing/report.js';
import { twoFraming } from '../analyses/two-framing/index.js';
import { poolingLines } from './pipeline/table-pooling.js';
import { labelSynthetic } from '../core/provenance.js';
import { reproduceFigures, reproduceReportFile } from './pipeline/rates-report.js';
import { finish } from './pipeline/write.js';

export { reproduceFigures } from './pipeline/rates-report.js';

/** figures/ (spec, SVG, PNG of each figure) and reports/report.html of a reproduce result. */
export async function reproducePresentationFiles(res: ReproduceResult, outDir: string, logger?: Logger, pool?: FigurePool,
  style?: FigureStyle): Promise<OutputFile[]> {
  const figures = reproduceFigures(res);
  warnOmittedFigures(res.analysis, logger);
  return labelSynthetic([...await figureFiles(figures, resolve(outDir), logger, pool, style), reproduceReportFile(res, outDir, figures)], res.input.origin);
}

/** The options of `reproduce`: the input, the settings, the published values, and figures, logger and dryRun. */
export type ReproduceCommandOptions = ReproduceOptions & FigureOption & Pick<CommandOptions, 'failOnChecks' | 'dryRun'>;

/**
 * `samegame reproduce`: the tables of `reproduceTables`, the figures (Vega-Lite spec, SVG, PNG)
 * and reports/report.html, all written as one atomic set (`figures: false`: the tables alone), then
 * what the CLI prints through the logger. Rendering lives in src/render; the analysis's figures are
 * drawn on a worker while the checks and the comparison with published values run.
 */
export async function reproduce(opts: ReproduceCommandOptions = {}): Promise<ReproduceResult> {
  checkOut(opts);
  const res = await reproduceOutputs(opts);
  return finish({ result: res, files: res.files, print: (logger) => printReproduce(res, logger), checks: res.verification }, opts);
}

/** The result of `reproduce` with every file it writes: the tables, and (unless `figures: false`) the figures and the report. */
async function reproduceOutputs(opts: ReproduceCommandOptions): Promise<ReproduceResult> {
  if (opts.figures === false) return reproduceTables(opts);
  const pool = new FigurePool(); // its worker loads the renderer while the bootstrap runs
  let res: ReproduceResult;
  try {
    res = reproduceTables({ ...opts, onAnalysis: (a) => { for (const f of twoFraming.figures(a)) pool.prefetch(styled(f, opts.figureStyle)); } });
  } catch (e) {
    pool.abandon();
    throw e;
  }
  return { ...res, files: [...res.files, ...await reproducePresentationFiles(res, opts.out ?? '.', opts.logger, pool, opts.figureStyle)] };
}

/** What `samegame reproduce` prints: Table 3 (stdout), the R = 1 tests, the files, the notes, the checks passed. */
function printReproduce(res: ReproduceResult, logger: Logger): void {
  const rows = res.table3.map((r) => ({ ...r, model: shown(res.names?.map, r.model) }));
  logger.print?.(`${table3Text(rows, res.analysis.settings.attenuation, res.analysis.boot.method, res.analysis.bands?.c)}\n${poolingLines(res.pooling,
    res.analysis)}`);
  if (hasFramingTests(res.analysis)) logger.info(framingTestText(res.analysis));
  logFiles(res.files, logger);
  // What the reading of a log left out (a short match, a game without a cooperative action): warnings, as analyze prints them.
  for (const n of res.notes) logger.warn(n);
  for (const n of res.analysis.boot.notes) logger.warn(n);
  if (!res.verification.passed) return;
  logger.info((`verification: ${res.verification.checks.length} checks passed; ${res.verification.degenerate.length} degenerate cells listed ` +
    `in ${writtenPath(res.files, 'reports/verification.md')}`));
  for (const w of res.verification.checks.flatMap((c) => c.warnings ?? [])) logger.warn(w);
}
