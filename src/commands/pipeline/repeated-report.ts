import { join } from 'node:path';
import type { FigureStyle } from '../../render/paper-style.js';
import type { OutputFile } from '../../core/atomic.js';
import type { Logger } from '../../core/logger.js';
import { toolInfo } from '../../core/paths.js';
import { wrappedCommand } from '../../core/command-line.js';
import type { Figure } from '../../render/figure.js';
import { figureFiles } from '../../render/figure-files.js';
import { renderReportHtml, type Section } from '../../render/html.js';
import { fileLinks, figurePaths, filesSection } from '../../render/files-section.js';
import { namedAnalysis, twoFraming } from '../../analyses/two-framing/index.js';
import { repeated } from '../../analyses/repeated/index.js';
import { syntheticBanner } from '../../analyses/selective/index.js';
import { FILE_NOTES } from '../file-notes.js';
import { comprehension } from '../../analyses/comprehension/index.js';
import type { RepeatedResult } from './repeated-tables.js';
import { adaptive } from '../../analyses/adaptive/index.js';
import type { RepeatedStoreDecisions } from '../../sources/repeated-store.js';

/** The repeated figures, then (with two framings) the two-framing ones. */
export function repeatedFigureList(res: RepeatedResult): Figure[] {
  return [...repeated.figures(res.analysis), ...(res.twoFraming ? twoFraming.figures(namedAnalysis(res.twoFraming.analysis,
    res.analysis.settings.names)) : []), ...(res.comprehension ? [comprehension.figure(res.comprehension.comprehension)] : [])];
}

function settingsSection(res: RepeatedResult): Section {
  const s = res.analysis.settings;
  const pair = res.twoFraming ? [['framing pair', `${res.twoFraming.analysis.settings.base} vs ${res.twoFraming.analysis.settings.alt}`] as const] : [];
  return {
    id: 'settings', heading: 'Settings',
    blocks: [
      { kind: 'facts', items: [
        ...(s.interval === 'cluster-bootstrap' ? [['seed', String(s.seed)], ['replicates', String(s.reps)]] as const : []), ['cluster', 'match'],
        ['interval', s.interval === 'cluster-bootstrap' ? '95 % percentile cluster bootstrap' : '95 % cluster-robust (CR2, Satterthwaite df)'], ...pair] },
      { kind: 'text', text: 'Regenerate with:' },
      { kind: 'code', text: wrappedCommand(res.command) },
    ],
  };
}

/** The two-framing sections (Table 2, Table 3, verification) with two or more framings. */
function twoFramingSections(res: RepeatedResult): Section[] {
  const t = res.twoFraming;
  if (!t) return [];
  const a = namedAnalysis(t.analysis, res.analysis.settings.names); // display names (the CSVs keep the ids)
  return [
    { id: 'two-framing', heading: 'Framings compared', blocks: [{ kind: 'text',
      text: ('Table 2 and Table 3 of the decisions\' cell table: each opponent is its own game ("game [opponent=…]"), each cell clustered by match, so the ' +
        'bootstrap resamples matches.') }] },
    twoFraming.report.table2(a), comprehension.withNote(twoFraming.report.table3(a), res.comprehension?.note ?? ''),
    twoFraming.report.verification(t.verification),
  ];
}

/** An adaptive repeated run's section: each unit's anytime-valid interval over its matches at its stopping look, matches and calls saved. */
function adaptiveMatchSection(res: RepeatedResult): Section[] {
  const a = (res.input as RepeatedStoreDecisions).adaptive;
  return a ? [adaptive.section(a.rule, a.statuses, (id) => res.analysis.settings.names?.[id] ?? id, a.calls)] : [];
}

/** reports/report.html and figures/ of a repeated analysis. */
export async function repeatedPresentationFiles(res: RepeatedResult, logger?: Logger, style?: FigureStyle): Promise<OutputFile[]> {
  const figures = repeatedFigureList(res);
  const reportPath = join(res.reportsDir, 'report.html');
  const links = fileLinks(reportPath, [...res.files.map((f) => f.path), ...figurePaths(res.outDir, figures)], { ...FILE_NOTES, ...repeated.tables.notes });
  const a = res.analysis;
  const tool = toolInfo();
  const banner = res.input.synthetic ? syntheticBanner([...new Set(a.cells.map((c) => c.key.model))]) : undefined;
  const html = renderReportHtml({
    title: `samegame analyze: ${res.input.path}`,
    subtitle: `Repeated play by round, reactions and the end game, clustered by match (${tool.name} ${tool.version})`,
    ...(banner ? { banner } : {}),
    sections: [
      repeated.report.summary(a, res.input), repeated.report.models(a, res.models), repeated.report.cells(a), repeated.report.reactions(a),
      twoFraming.report.figures(figures), repeated.report.matches(a, res.input), ...twoFramingSections(res),
      ...(res.comprehension ? [comprehension.section(res.comprehension.comprehension, (id) => a.settings.names?.[id] ?? id)] : []),
      ...adaptiveMatchSection(res), settingsSection(res), filesSection(links),
    ],
  });
  return [...await figureFiles(figures, res.outDir, logger, undefined, style), { path: reportPath, content: html }];
}
