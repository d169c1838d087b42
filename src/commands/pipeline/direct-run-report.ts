import { join } from 'node:path';
import { poolingSections } from './table-pooling.js';
import type { FigureStyle } from '../../render/paper-style.js';
import type { OutputFile } from '../../core/atomic.js';
import type { Logger } from '../../core/logger.js';
import type { AnalyzeResult } from './direct-run.js';
import { toolInfo } from '../../core/paths.js';
import type { Figure } from '../../render/figure.js';
import { omittedFigures, twoFramingFigures } from '../../analyses/two-framing/figures.js';
import { compareFigure } from '../../analyses/compare/figure.js';
import { gameNameOf } from '../../analyses/compare/design-facts.js';
import { lambdaRows } from '../../analyses/compare/tables.js';
import { compareSections, lambdaSection } from '../../analyses/compare/report.js';
import { syntheticNotice } from '../../core/provenance.js';
import { namedAnalysis } from '../../analyses/two-framing/named.js';
import { provenanceSections } from '../origin-report.js';
import { figureFiles } from '../../render/figure-files.js';
import { num, renderReportHtml, type Section } from '../../render/html.js';
import { fileLinks, figurePaths, filesSection } from '../../render/files-section.js';
import {
  figuresSection, provenanceSection, settingsSection, summarySection, table2Section, table3Section, verificationSection, warnOmittedFigures,
} from '../../analyses/two-framing/report.js';
import { reproductionFigures, reproductionSection } from '../../analyses/reproduction/index.js';
import { FILE_NOTES } from '../file-notes.js';
import { comprehension } from '../../analyses/comprehension/index.js';
import { adaptive } from '../../analyses/adaptive/index.js';

/** The figures of a direct-run analysis: the same four as reproduce (games by name), plus the comparison. */
export function analyzeFigures(res: AnalyzeResult): Figure[] {
  const figures = twoFramingFigures(namedAnalysis(res.analysis, res.names?.map), gameNameOf(res.facts));
  if (res.comparison) figures.push(compareFigure(res.comparison.rows,
    `B = ${res.analysis.settings.reps} bootstrap replicates, seed ${res.analysis.settings.seed}`));
  if (res.reproduction) figures.push(...reproductionFigures(res.reproduction, res.names?.map));
  if (res.comprehension) figures.push(comprehension.figure(res.comprehension.comprehension));
  return figures;
}

function trialsSection(res: AnalyzeResult): Section {
  const gameName = gameNameOf(res.facts);
  return {
    id: 'trials',
    heading: 'Trials per cell',
    blocks: [
      { kind: 'text', text: (`Run ${res.source.run.id} of design "${res.source.run.designName}" (hash ${res.source.run.designHash.slice(0, 12)}…, ` +
        `samegame ${res.source.run.toolVersion}). Only valid trials enter the estimates; invalid answers and failed calls are counted ` +
        `here.${res.facts.simulated.length ? ` Synthetic data: ${res.facts.simulated.join(', ')} answered through the simulated provider.` : ''}`) },
      {
        kind: 'table',
        columns: ['Model', 'Game', 'Framing', num('Valid'), num('Invalid'), num('Failed'), 'Scoring'],
        rows: res.source.tallies.map((t) => [t.model, gameName(t.game), t.framing, num(String(t.valid)), num(String(t.invalid)), num(String(t.error)),
          t.scoring]),
      },
    ],
  };
}

/** The report's sections, in reading order. */
function analyzeSections(res: AnalyzeResult, figures: readonly Figure[]): Section[] {
  const a = namedAnalysis(res.analysis, res.names?.map); // the report shows display names; its CSVs keep the ids
  const gameName = gameNameOf(res.facts);
  const prov = { ...res.provenance, columns: [] };
  const synthetic = res.origin.synthetic ? [syntheticNotice(res.origin)] : [];
  const compareFacts = res.compareInput
    ? [['compare', `${res.compareInput.path} (sha256 ${res.compareInput.sha256})`] as const,
      ['map-model', Object.entries(res.compareInput.modelMap).map(([d, r]) => `${d}=${r}`).join(', ') || 'none'] as const]
    : [];
  const links = fileLinks(join(res.reportsDir, 'report.html'), [...res.files.map((f) => f.path), ...figurePaths(res.outDir, figures)], FILE_NOTES);
  return [
    summarySection(a, res.verification, prov, { gameName, notes: synthetic }), trialsSection(res), table2Section(a, gameName),
      comprehension.withNote(table3Section(a, gameName), res.comprehension?.note ?? ''),
      ...(res.comprehension ? [comprehension.section(res.comprehension.comprehension, (id) => res.names?.map[id] ?? id)] : []),
      ...poolingSections(res.pooling, a),
      ...(res.source.adaptive ? [adaptive.section(res.source.adaptive.rule, res.source.adaptive.statuses, (id) => res.names?.map[id] ?? id)] : []),
    lambdaSection(lambdaRows(res.analysis, res.facts.gaps), gameName), ...compareSections(res.analysis, res.comparison, gameName),
    ...(res.reproduction ? [reproductionSection(res.reproduction, res.names?.map)] : []),
    figuresSection(figures, undefined, undefined, omittedFigures(res.analysis)), verificationSection(res.verification),
      ...provenanceSections(provenanceSection(prov), res.origin),
    settingsSection(a, res.command, [['run', String(res.source.run.id)], ...compareFacts]), filesSection(links),
  ];
}

/** figures/ and reports/report.html of a two-framing direct-run analysis. */
export async function analyzePresentationFiles(res: AnalyzeResult, logger?: Logger, style?: FigureStyle): Promise<OutputFile[]> {
  const a = res.analysis;
  const figures = analyzeFigures(res);
  warnOmittedFigures(a, logger);
  const tool = toolInfo();
  const html = renderReportHtml({
    title: `samegame analyze: ${res.source.run.designName}`,
    subtitle: `Two-framing robustness of ${a.settings.base} vs ${a.settings.alt} from a trial store (${tool.name} ${tool.version})`,
    ...(res.origin.synthetic ? { banner: syntheticNotice(res.origin) } : {}),
    sections: analyzeSections(res, figures),
  });
  return [...await figureFiles(figures, res.outDir, logger, undefined, style), { path: join(res.reportsDir, 'report.html'), content: html }];
}
