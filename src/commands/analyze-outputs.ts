import { join } from 'node:path';
import type { OutputFile } from '../core/atomic.js';
import type { Logger } from '../core/logger.js';
import type { AnalyzeResult } from './analyze.js';
import { toolInfo } from '../core/paths.js';
import type { Figure } from '../render/figure.js';
import { twoFramingFigures } from '../analyses/two-framing/figures.js';
import { compareFigure } from '../analyses/compare/figure.js';
import { figureFiles } from '../render/render.js';
import { renderReportHtml, type Section } from '../render/html.js';
import {
  figuresSection, provenanceSection, settingsSection, summarySection, table2Section, table3Section, verificationSection,
} from '../analyses/two-framing/report.js';
import { fixed } from '../core/format.js';
import { reproductionFigure, reproductionSection } from '../analyses/reproduction/index.js';

/** The figures of a direct-run analysis: the same four as reproduce, plus the comparison. */
export function analyzeFigures(res: AnalyzeResult): Figure[] {
  const figures = twoFramingFigures(res.analysis);
  if (res.comparison) figures.push(compareFigure(res.comparison.rows, `B = ${res.analysis.settings.reps} bootstrap replicates, seed ${res.analysis.settings.seed}`));
  if (res.reproduction) figures.push(reproductionFigure(res.reproduction));
  return figures;
}

function trialsSection(res: AnalyzeResult): Section {
  return {
    id: 'trials',
    heading: 'Trials per cell',
    blocks: [
      { kind: 'text', text: `Run ${res.source.run.id} of design "${res.source.run.designName}" (hash ${res.source.run.designHash.slice(0, 12)}…, samegame ${res.source.run.toolVersion}). Only valid trials enter the estimates; invalid answers and failed calls are counted here.${res.facts.simulated.length ? ` Synthetic data: ${res.facts.simulated.join(', ')} answered through the simulated provider.` : ''}` },
      {
        kind: 'table',
        columns: ['Model', 'Game', 'Framing', { text: 'Valid', numeric: true }, { text: 'Invalid', numeric: true }, { text: 'Failed', numeric: true }, 'Scoring'],
        rows: res.source.tallies.map((t) => [t.model, t.game, t.framing, { text: String(t.valid), numeric: true }, { text: String(t.invalid), numeric: true }, { text: String(t.error), numeric: true }, t.scoring]),
      },
    ],
  };
}

function compareSection(res: AnalyzeResult): Section[] {
  const c = res.comparison;
  if (!c) return [];
  return [{
    id: 'compare',
    heading: 'Direct run beside the reconstructed data',
    blocks: [{
      kind: 'table',
      columns: ['Model', 'Game', 'Framing', { text: 'Direct', numeric: true }, { text: 'Reconstructed', numeric: true }, { text: 'Difference [95 %]', numeric: true }],
      rows: c.rows.map((r) => [r.model, r.game, r.framing, { text: fixed(r.direct_rate), numeric: true }, { text: fixed(r.reconstructed_rate), numeric: true },
        { text: `${fixed(r.difference)} [${fixed(r.diff_lo)}, ${fixed(r.diff_hi)}]`, numeric: true }]),
    }, ...(c.unmatchedDirect.length ? [{ kind: 'list' as const, items: c.unmatchedDirect.map((u) => `unmatched direct cell: ${u}`) }] : [])],
  }];
}

/** figures/ and reports/report.html of a two-framing direct-run analysis. */
export async function analyzePresentationFiles(res: AnalyzeResult, logger?: Logger): Promise<OutputFile[]> {
  const a = res.analysis;
  const figures = analyzeFigures(res);
  const prov = { ...res.provenance, columns: [] };
  const tool = toolInfo();
  const html = renderReportHtml({
    title: `samegame analyze: ${res.source.run.designName}`,
    subtitle: `Two-framing robustness of ${a.settings.base} vs ${a.settings.alt} from a trial store (${tool.name} ${tool.version})`,
    sections: [
      summarySection(a, res.verification, prov), trialsSection(res), table2Section(a), table3Section(a), ...compareSection(res),
      ...(res.reproduction ? [reproductionSection(res.reproduction)] : []),
      figuresSection(figures), verificationSection(res.verification), provenanceSection(prov),
      settingsSection(a, `samegame analyze ${prov.path} --seed ${a.settings.seed} --reps ${a.settings.reps} --attenuation ${a.settings.attenuation} --base ${a.settings.base} --alt ${a.settings.alt}${a.boot.method === 'bca' ? ' --interval bca' : ''}`),
    ],
  });
  return [...await figureFiles(figures, res.outDir, logger), { path: join(res.reportsDir, 'report.html'), content: html }];
}
