/**
 * The report of a rates input (reports/report.html, its figures and regenerate command), shared by
 * `reproduce` (which also renders the figures) and `report` (the report alone).
 */
import { join, resolve } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import { toolInfo } from '../../core/paths.js';
import { syntheticNotice } from '../../core/provenance.js';
import type { Figure } from '../../render/figure.js';
import { fileLinks, figurePaths, filesSection } from '../../render/files-section.js';
import { renderReportHtml, type ReportDoc } from '../../render/html.js';
import { reproductionFigures, reproductionSection } from '../../analyses/reproduction/index.js';
import { namedAnalysis, twoFraming, type ReportProvenance } from '../../analyses/two-framing/index.js';
import { verdictFlags } from '../expect.js';
import { FILE_NOTES } from '../file-notes.js';
import { poolingSections } from './table-pooling.js';
import { provenanceSections } from '../origin-report.js';
import { sourceAnalyses } from '../source-analyses.js';
import { ratesCommand, type ReproduceResult } from './rates-tables.js';

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
