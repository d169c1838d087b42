import { join, resolve } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import type { Logger } from '../../core/logger.js';
import { toolInfo } from '../../core/paths.js';
import { statLabel } from '../../core/names.js';
import { fixed } from '../../core/format.js';
import { figureFiles, type FigurePool } from '../../render/figure-files.js';
import { num, renderReportHtml, type Block, type ReportDoc } from '../../render/html.js';
import type { Figure } from '../../render/figure.js';
import type { FigureStyle } from '../../render/paper-style.js';
import type { AuditResult } from './audit.js';
import { auditMarkdown } from './markdown.js';
import { auditJson } from './json.js';
import { auditFigures } from './figures.js';
import { isExactMinimum } from './tipping.js';
import { fileLinks, figurePaths, filesSection } from '../../render/files-section.js';
import { auditHeadline, summaryItems } from './summary.js';
import { auditSettingsSection, degenerateSection, influenceSection, mcErrorSection } from './html-sections.js';

const AUDIT_FILE_NOTES: Readonly<Record<string, string>> = {
  'audit.md': 'the full audit, readable', 'audit.json': 'the full audit in full precision, with the regenerate command',
};

type Result = Omit<AuditResult, 'files'>;

/** reports/audit.html: the audit's summary, tipping points and figures through the shared report renderer. */
export function auditReportDoc(r: Result, figures: readonly Figure[], outDir = '.'): ReportDoc {
  const out = resolve(outDir);
  const reports = join(out, 'reports');
  const links = fileLinks(join(reports, 'audit.html'), [join(reports, 'audit.md'), join(reports, 'audit.json'), ...figurePaths(out, figures)],
    AUDIT_FILE_NOTES);
  const flags = r.consistency.filter((c) => c.status === 'impossible-rate' || c.status === 'count-mismatch');
  const L = r.readingError.label;
  const tipping: Block = {
    kind: 'table', caption: 'Fewest single-count changes that overturn each conclusion (verified by re-running the pipeline)',
    columns: ['Conclusion', 'Observed', num('Changes'), 'Method', `Reading error ${L}`],
    rows: r.tipping.map((t) => [t.statement, t.observed, num(t.changes === undefined ? '—' : String(t.changes)),
      t.method === 'not-held' ? 'does not hold' : t.method === 'not-found' ? 'not found' : isExactMinimum(t.method) ? 'exact minimum' : 'upper bound (search)',
      r.readingError.given ? 'counts given'
        : { text: t.readingError.overturned ? 'can overturn' : 'cannot overturn', status: t.readingError.overturned ? 'fail' as const : 'pass' as const }]),
  };
  const reading: Block = {
    kind: 'table', caption: `Range of the headline point estimates under reading error ${L} (exact)`,
    columns: ['Statistic', num('Observed'), num('Min'), num('Max')],
    rows: r.readingError.ranges.filter((x) => x.which === 'point').map((x) => [statLabel(x.kind, x.group),
      num(fixed(x.observed, 4)), num(fixed(x.min, 4)), num(fixed(x.max, 4))]),
  };
  return {
    title: `samegame audit: ${r.input.path}`,
    subtitle: `Provenance audit of ${r.input.kind} (${toolInfo().name} ${toolInfo().version}); the full audit is audit.md and audit.json (Files, below)`,
    sections: [
      { id: 'summary', heading: 'Summary', blocks: [{ kind: 'text', text: auditHeadline(r) }, { kind: 'list', items: summaryItems(r) }] },
      { id: 'consistency', heading: 'Consistency of the reported rates', blocks: [
        { kind: 'text', text: flags.length === 0 ? (`No reported rate is impossible at its n (${r.consistency.length} cells, GRIM-style ` +
          `check).`) : `${flags.length} cell(s) flagged:` },
        ...(flags.length ? [{ kind: 'list' as const,
          items: flags.map((f) =>
            (`${f.cell} (line ${f.line}): rate ${f.rate} at n ` +
              `= ${f.n}; ${f.nearby ? `nearest possible ${f.nearby.map((x) => `${x.count}/${f.n} → ${x.rate}`).join(
                ', ')}` : `count ${f.count} does not reproduce it`}`)) }] : []),
      ] },
      { id: 'tipping-points', heading: 'Tipping points', blocks: [tipping] },
      { id: 'reading-error', heading: r.readingError.given ? 'Reading error' : `Reading error ${L}`,
        blocks: [r.readingError.given ? { kind: 'text', text: `The counts were given (${r.input.kind}): no reading-error analysis.` } : reading] },
      { id: 'figures', heading: 'Figures', blocks: figures.map((figure): Block => ({ kind: 'figure', figure })) },
      influenceSection(r), mcErrorSection(r), degenerateSection(r), auditSettingsSection(r),
      filesSection(links),
    ],
  };
}

/**
 * Every file `samegame audit` writes, under outDir: reports/audit.{md,json,html} and figures/audit-*
 * (on the caller's figure pool when given: a figure prefetched there is not drawn twice).
 */
export async function auditFiles(r: Result, outDir: string, logger?: Logger, pool?: FigurePool, style?: FigureStyle): Promise<OutputFile[]> {
  const out = resolve(outDir);
  const reports = join(out, 'reports');
  const figures = auditFigures(r.attenuation, r.tipping, r.readingError.K, r.analysis, r.readingError.perCell ? r.readingError.label : undefined);
  return [
    { path: join(reports, 'audit.md'), content: auditMarkdown(r) },
    { path: join(reports, 'audit.json'), content: auditJson(r) },
    ...await figureFiles(figures, out, logger, pool, style),
    { path: join(reports, 'audit.html'), content: renderReportHtml(auditReportDoc(r, figures, outDir)) },
  ];
}
