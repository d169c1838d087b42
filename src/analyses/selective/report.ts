import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import type { SelectiveAnalysis } from './types.js';
import { toolInfo } from '../../core/paths.js';
import { fixed } from '../../core/format.js';
import { renderReportHtml, type Section } from '../../render/html.js';
import { figuresSection } from '../two-framing/index.js';

const pts = (x: number) => fixed(100 * x, 1);
const num = (text: string) => ({ text, numeric: true });

/**
 * reports/report.html of a context-enrichment run: the selective-robustness table (the context-enrichment paper §R,
 * in percentage points as the paper prints it), the plane figure with the published metrics,
 * the context-enrichment summary metrics, and the imputation sensitivity of first-token scoring.
 */
export function selectiveReportFile(a: SelectiveAnalysis): OutputFile {
  const { spec } = a.facts;
  const [hi, lo] = spec.worlds;
  const robust = a.rows.filter((r) => r.verdict === 'selectively robust').length;
  const sections: Section[] = [
    {
      id: 'summary', heading: 'Summary',
      blocks: [
        { kind: 'text', text: `${a.rows.length} model × condition groups; ${robust} selectively robust (surface sensitivity ≤ ${pts(a.thresholds.maxSurface)} points and a world-responsiveness interval above ${pts(a.thresholds.minWorldLo)} points). Surface sensitivity = mean over worlds of the mean |p(${spec.formats[0]}) − p(format)| over the other formats; world responsiveness = mean over formats of p(${hi}) − p(${lo}). 95 % intervals from ${a.settings.reps} replicates resampling the calls within each cell (seed ${a.settings.seed}).` },
        { kind: 'facts', items: [
          ['Run', `${a.source.run.id} of design "${a.source.run.designName}" (samegame ${a.source.run.toolVersion})`],
          ['Models', a.layout.models.join(', ')],
          ['Conditions', a.layout.conditions.join(', ')],
          ['Worlds', `${hi} (expected higher), ${lo}`],
          ['Formats', spec.formats.join(', ')],
          ['Imputation', a.imputation.scored === 0 ? 'sampled text: none' : `${a.imputation.imputed} of ${a.imputation.scored} calls; largest change at the bounds ${fixed(100 * a.imputation.maxChange, 2)} points`],
        ] },
      ],
    },
    {
      id: 'selective', heading: 'Selective robustness (percentage points)',
      blocks: [{
        kind: 'table', id: 'selective-table',
        columns: ['Model', 'Condition', num('Surface sensitivity'), num('95 %'), num('World responsiveness'), num('95 %'), 'Verdict'],
        rows: a.rows.map((r) => [r.model, r.condition, num(pts(r.ss)), num(`[${pts(r.ssLo)}, ${pts(r.ssHi)}]`), num(pts(r.wr)), num(`[${pts(r.wrLo)}, ${pts(r.wrHi)}]`), r.verdict]),
      }],
    },
    figuresSection(a.figures),
    {
      id: 'paraphrase', heading: 'Paraphrase invariance and directional sensitivity',
      blocks: [
        { kind: 'text', text: 'JSD: Jensen–Shannon divergence (natural log) between the canonical format and each other format, averaged; the JS distance √JSD (what scipy returns) beside it. Directional sensitivity: p(new) − p(old) in the registered direction, on the canonical format.' },
        {
          kind: 'table', id: 'paraphrase-table',
          columns: ['Model', 'Condition', num('JSD'), num('95 %'), num('JS distance'), num('Directional sensitivity'), num('95 %')],
          rows: a.rows.map((r) => [r.model, r.condition, num(fixed(r.jsd, 4)), num(`[${fixed(r.jsdLo, 4)}, ${fixed(r.jsdHi, 4)}]`), num(fixed(r.dist, 3)), num(fixed(r.ds, 3)), num(`[${fixed(r.dsLo, 3)}, ${fixed(r.dsHi, 3)}]`)]),
        },
      ],
    },
  ];
  const tool = toolInfo();
  const html = renderReportHtml({ title: `samegame analyze: ${a.source.run.designName}`, subtitle: `Selective robustness of a context-enrichment run (${tool.name} ${tool.version})`, sections });
  return { path: join(a.reportsDir, 'report.html'), content: html };
}
