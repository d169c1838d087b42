import { wrappedCommand } from '../../core/command-line.js';
import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import type { SelectiveAnalysis } from './types.js';
import { points, pointsInterval } from './equivalence.js';
import { toolInfo } from '../../core/paths.js';
import { simulatedNotice } from '../../core/provenance.js';
import { fixed, interval } from '../../core/format.js';
import { num, renderReportHtml, type Section } from '../../render/html.js';
import { figuresSection } from '../two-framing/index.js';
import { fileLinks, figurePaths, filesSection } from '../../render/files-section.js';

/** The notice a report of simulated models carries under its title and in its summary (core/provenance.ts simulatedNotice). */
export const syntheticBanner = simulatedNotice;

function selectiveProvenanceSection(a: SelectiveAnalysis): Section {
  const r = a.source.run;
  return { id: 'provenance', heading: 'Input provenance', blocks: [{ kind: 'facts', items: [
    ['Store', a.provenance.path], ['SHA-256', a.provenance.sha256], ['Kind', a.provenance.kind],
    ['Run', `${r.id} of design "${r.designName}" (design hash ${r.designHash}, samegame ${r.toolVersion})`],
    ['Synthetic models', a.facts.simulated.length ? a.facts.simulated.join(', ') : 'none'],
  ] }] };
}

function selectiveSettingsSection(a: SelectiveAnalysis): Section {
  return { id: 'settings', heading: 'Settings', blocks: [
    { kind: 'facts', items: [
      ['seed', String(a.settings.seed)], ['reps', String(a.settings.reps)],
      ['max surface sensitivity', String(a.thresholds.maxSurface)], ['min world responsiveness (interval lower end)', String(a.thresholds.minWorldLo)],
      ['interval', '95% percentile bootstrap, resampling the calls within each cell'],
    ] },
    { kind: 'text', text: 'Regenerate with:' },
    { kind: 'code', text: wrappedCommand(a.command) },
  ] };
}

const NOTES: Readonly<Record<string, string>> = {
  'selective.csv': 'SS, WR and the verdict per model and condition (fractions)',
  'selective-paraphrase.csv': 'JSD, JS distance and directional sensitivity',
  'selective-equivalence.csv': 'the simultaneous bounds of SS and the invariance and directional verdicts by equivalence',
  'selective-cells.csv': 'calls and mean first-action probability per cell',
  'selective-imputation.csv': 'the metrics with imputed calls at 0 and at the full unreturned mass',
  'selective.json': 'everything, with the definitions, the input and the regenerate command',
  'selective.md': 'the summary, readable',
  'selective.tex': 'SS, WR (points) and the verdict per model and condition as a booktabs table',
};

function selectiveLinks(a: SelectiveAnalysis) {
  return fileLinks(join(a.reportsDir, 'report.html'), [...a.files.map((f) => f.path), ...figurePaths(a.outDir, a.figures)], NOTES);
}


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
        { kind: 'text', text: (`${a.facts.simulated.length ? `${syntheticBanner(a.facts.simulated)} ` : ''}${a.rows.length} model × condition ` +
          `groups; ${robust} selectively robust (the simultaneous 95 % upper bound of surface sensitivity ≤ ${points(a.thresholds.maxSurface)} points, an ` +
          `equivalence decision, and a world-responsiveness interval above ${points(a.thresholds.minWorldLo)} points). Surface sensitivity = mean over ` +
          `worlds of the mean |p(${spec.formats[0]}) − p(format)| over the other formats; world responsiveness = mean over formats of p(${hi}) − p(${lo}). ` +
          `95 % intervals from ${a.settings.reps} replicates resampling the calls within each cell (seed ${a.settings.seed}).`) },
        { kind: 'facts', items: [
          ['Run', `${a.source.run.id} of design "${a.source.run.designName}" (samegame ${a.source.run.toolVersion})`],
          ['Models', a.layout.models.join(', ')],
          ['Conditions', a.layout.conditions.join(', ')],
          ['Worlds', `${hi} (expected higher), ${lo}`],
          ['Formats', spec.formats.join(', ')],
          ['Imputation', a.imputation.scored === 0 ? ('sampled text: ' +
            'none') : `${a.imputation.imputed} of ${a.imputation.scored} calls; largest change at the bounds ${fixed(100 * a.imputation.maxChange, 2)} points`],
        ] },
      ],
    },
    {
      id: 'selective', heading: 'Selective robustness (percentage points)',
      blocks: [{
        kind: 'table', id: 'selective-table',
        columns: ['Model', 'Condition', num('Surface sensitivity'), num('95 %'), num('World responsiveness'), num('95 %'), 'Verdict'],
        rows: a.rows.map((r) => [r.model, r.condition, num(points(r.ss)), num(pointsInterval(r.ssLo, r.ssHi)), num(points(r.wr)), num(pointsInterval(r.wrLo,
          r.wrHi)), r.verdict]),
      }],
    },
    figuresSection(a.figures),
    {
      id: 'paraphrase', heading: 'Paraphrase invariance and directional sensitivity',
      blocks: [
        { kind: 'text', text: ('JSD: Jensen–Shannon divergence (natural log) between the canonical format and each other format, averaged; the JS distance ' +
          '√JSD (what scipy returns) beside it. Directional sensitivity: p(new) − p(old) in the registered direction, on the canonical format.') },
        {
          kind: 'table', id: 'paraphrase-table',
          columns: ['Model', 'Condition', num('JSD'), num('95 %'), num('JS distance'), num('Directional sensitivity'), num('95 %')],
          rows: a.rows.map((r) => [r.model, r.condition, num(fixed(r.jsd, 4)), num(interval(r.jsdLo, r.jsdHi, 4)), num(fixed(r.dist, 3)), num(fixed(r.ds, 3)),
            num(interval(r.dsLo, r.dsHi, 3))]),
        },
      ],
    },
  ];
  sections.push(selectiveProvenanceSection(a), selectiveSettingsSection(a), filesSection(selectiveLinks(a)));
  const tool = toolInfo();
  const html = renderReportHtml({
    title: `samegame analyze: ${a.source.run.designName}`, subtitle: `Selective robustness of a context-enrichment run (${tool.name} ${tool.version})`,
    ...(a.facts.simulated.length ? { banner: syntheticBanner(a.facts.simulated) } : {}), sections,
  });
  return { path: join(a.reportsDir, 'report.html'), content: html };
}
