import { join, resolve } from 'node:path';
import type { OutputFile } from '../io/atomic.js';
import type { Logger } from '../log/logger.js';
import type { ReproduceResult } from '../pipeline/reproduce.js';
import { toolInfo } from '../paths.js';
import type { Figure } from './figures/figure.js';
import { twoFramingFigures } from './figures/two-framing.js';
import { figureFiles } from './render.js';
import { renderReportHtml, type ReportDoc } from './report-html.js';
import {
  figuresSection, provenanceSection, settingsSection, summarySection, table2Section, table3Section,
  verificationSection, type ReportProvenance,
} from './report-two-framing.js';

/** A shell word: quoted unless it is plain. */
function shellWord(s: string): string {
  return /^[\w./=:@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The command line that regenerates these outputs. */
export function reproduceCommand(res: ReproduceResult, command = 'reproduce'): string {
  const s = res.analysis.settings;
  return ['samegame', command, '--data', res.input.path, '--seed', String(s.seed), '--reps', String(s.reps),
    '--attenuation', String(s.attenuation), '--base', s.base, '--alt', s.alt].map(shellWord).join(' ');
}

/** Provenance columns of a rates file with their distinct values (first-appearance order). */
export function ratesProvenance(res: ReproduceResult): ReportProvenance {
  const columns = res.input.provenanceColumns.map((name) => {
    const counts = new Map<string, number>();
    for (const r of res.input.rows) {
      const v = r.cell.provenance?.[name] ?? '';
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    return { name, values: [...counts].map(([value, rows]) => ({ value, rows })) };
  });
  return { path: res.input.path, sha256: res.input.sha256, kind: 'reconstructed rates', columns };
}

export function reproduceReportDoc(res: ReproduceResult, figures: readonly Figure[]): ReportDoc {
  const a = res.analysis;
  const prov = ratesProvenance(res);
  const tool = toolInfo();
  return {
    title: 'samegame reproduce: Same Game, Different Story',
    subtitle: `Two-framing robustness of ${a.settings.base} vs ${a.settings.alt} from ${res.input.path} (${tool.name} ${tool.version})`,
    sections: [
      summarySection(a, res.verification, prov),
      table2Section(a),
      table3Section(a),
      figuresSection(figures),
      verificationSection(res.verification),
      provenanceSection(prov),
      settingsSection(a, reproduceCommand(res)),
    ],
  };
}

/** reports/report.html of a reproduce result (no rendering in Node: the browser draws the figures). */
export function reproduceReportFile(res: ReproduceResult, outDir: string, figures = twoFramingFigures(res.analysis)): OutputFile {
  return { path: join(resolve(outDir), 'reports', 'report.html'), content: renderReportHtml(reproduceReportDoc(res, figures)) };
}

/** figures/ (spec, SVG, PNG of each figure) and reports/report.html of a reproduce result. */
export async function reproducePresentationFiles(res: ReproduceResult, outDir: string, logger?: Logger): Promise<OutputFile[]> {
  const figures = twoFramingFigures(res.analysis);
  return [...await figureFiles(figures, resolve(outDir), logger), reproduceReportFile(res, outDir, figures)];
}
