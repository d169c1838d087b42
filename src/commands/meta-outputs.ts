/**
 * `samegame meta`: the tables of runMeta plus figures/ (forest and funnel plots: Vega-Lite spec,
 * SVG, PNG) and reports/report.html, written as one atomic set, then what the CLI prints.
 */
import { join, resolve } from 'node:path';
import type { OutputFile } from '../core/atomic.js';
import { toolInfo } from '../core/paths.js';
import { wrappedCommand } from '../core/command-line.js';
import { figureFiles } from '../render/figure-files.js';
import { fileLinks, figurePaths, filesSection } from '../render/files-section.js';
import { renderReportHtml, type ReportDoc, type Section } from '../render/html.js';
import type { Figure } from '../render/figure.js';
import { meta as metaAnalysis } from '../analyses/meta/index.js';
import { runMeta, type MetaOptions, type MetaResult } from './meta.js';
import { printMeta } from './meta-print.js';
import { checkOut, type CommandOptions, type FigureOption } from './command-options.js';
import { finish } from './pipeline/write.js';
import { namedMeta } from '../analyses/meta/named.js';

const META_FILE_NOTES: Readonly<Record<string, string>> = {
  'effects.csv': 'every cell\'s effect yi and sampling variance vi, with its decisions and moderators',
  'meta.csv': 'pooled estimates per model, per study and overall: CI, prediction interval, τ², I², H², Q, the Q-profile intervals of τ², I², H²',
  'meta-multilevel.csv': 'the three-level model (cells within studies): σ²_study, σ²_cell with profile-likelihood intervals, the pooled estimate',
  'meta-regression.csv': 'meta-regression coefficients, the test of moderators and the residual heterogeneity',
  'meta-regression-multilevel.csv': 'the meta-regression in the three-level model: coefficients, QM or F, variance explained per level',
  'meta-leave-one-out.csv': 'the overall estimate with each study left out',
  'meta-influence.csv': 'each cell\'s influence diagnostics (rstudent, DFFITS, Cook\'s d, hat…), the flag, and the overall estimate without it',
  'meta-small-study.csv': 'small-study tests: Egger\'s regression per predictor, Begg\'s rank correlation, trim and fill, PET-PEESE',
  'meta.tex': 'the pooled rows as a booktabs table', 'meta-regression.tex': 'the meta-regression coefficients as a booktabs table',
  'meta-influence.tex': 'the influence diagnostics as a booktabs table',
  'meta.json': 'every pooled number, the settings, the notes, the manifest\'s hash and every source\'s SHA-256',
};

function provenanceSection(res: MetaResult): Section {
  const rows = res.sources.flatMap((s) => s.files.map((f) => [s.study, s.kind, f.path, { text: f.sha256, hash: true }, s.what, String(s.attenuation),
    s.synthetic ? 'yes' : '']));
  return {
    id: 'meta-provenance', heading: 'Inputs',
    blocks: [
      { kind: 'facts', items: [[res.input.kind === 'manifest' ? 'Manifest' : 'Effect table', res.input.path], ['SHA-256', res.input.sha256]] },
      ...(rows.length ? [{ kind: 'table' as const, caption: 'Every source, as the manifest names it', columns: ['Study', 'Kind', 'File', 'SHA-256', 'Cells',
        'Attenuation', 'Synthetic'], rows }] : []),
      { kind: 'code', text: wrappedCommand(res.command) },
    ],
  };
}

export function metaReportDoc(res: MetaResult, figures: readonly Figure[], outDir: string): ReportDoc {
  const out = resolve(outDir);
  const report = join(out, 'reports', 'report.html');
  const links = fileLinks(report, [...res.files.map((f) => f.path), ...figurePaths(out, figures)], META_FILE_NOTES);
  const synthetic = [...new Set(res.analysis.effects.filter((r) => r.synthetic).map((r) => r.study))];
  const which = synthetic.length === 1 ? `the study ${synthetic[0]} is simulated; its` : `the studies ${synthetic.join(', ')} are simulated; their`;
  const tool = toolInfo();
  return {
    title: 'samegame meta: framing effects across games, models and studies',
    subtitle: `${res.input.path} (${tool.name} ${tool.version})`,
    ...(synthetic.length ? { banner: `Synthetic data: ${which} numbers say nothing about any real model (${res.synthetic}).` } : {}),
    sections: [...metaAnalysis.sections(namedMeta(res.analysis, res.names), figures), provenanceSection(res), filesSection(links)],
  };
}

/**
 * `samegame meta`: runMeta plus figures and the HTML report, written together unless dryRun
 * (`figures: false`: the tables alone), then the pooled table (logger.print; `quiet`: the overall
 * line alone), the notes and the files.
 */
export async function meta(o: MetaOptions & FigureOption & Pick<CommandOptions, 'dryRun'> & { readonly quiet?: boolean }): Promise<MetaResult> {
  checkOut(o);
  const res = await metaOutputs(o);
  return finish({ result: res, files: res.files, print: (logger) => printMeta(res, logger, o.quiet) }, o);
}

/** The tables of runMeta and, unless `figures: false`, the figures and reports/report.html. */
async function metaOutputs(o: MetaOptions & FigureOption): Promise<MetaResult> {
  const res = runMeta(o);
  if (o.figures === false) return res;
  const outDir = o.out ?? '.';
  const figures = metaAnalysis.figures(namedMeta(res.analysis, res.names)); // display names (the CSVs keep the ids)
  const figFiles = await figureFiles(figures, resolve(outDir), o.logger, undefined, o.figureStyle);
  const report: OutputFile = { path: join(resolve(outDir), 'reports', 'report.html'), content: renderReportHtml(metaReportDoc(res, figures, outDir)) };
  return { ...res, files: [...res.files, ...figFiles, report] };
}
