import { dirname, join, relative, sep } from 'node:path';
import type { Figure } from './figure.js';
import type { FileLink, Section } from './html.js';

/**
 * The "Files" section of a report: a link to every file the command wrote beside it, relative to
 * the report's folder ('/'-separated), so the links work from file:// and inside a zipped copy of
 * the output folder. The report itself is not listed.
 */

/** The three files figureFiles writes for each figure, under outDir/figures. */
export function figurePaths(outDir: string, figures: readonly Figure[]): string[] {
  return figures.flatMap((f) => ['vl.json', 'svg', 'png'].map((ext) => join(outDir, 'figures', `${f.id}.${ext}`)));
}

/** Links from the report at reportPath to each path (absolute), in the order given; duplicates and the report dropped. */
export function fileLinks(reportPath: string, paths: readonly string[], notes: Readonly<Record<string, string>> = {}): FileLink[] {
  const from = dirname(reportPath);
  const seen = new Set<string>([reportPath]);
  const links: FileLink[] = [];
  for (const p of paths) {
    if (seen.has(p)) continue;
    seen.add(p);
    const href = relative(from, p).split(sep).join('/');
    const name = p.split(sep).pop() ?? p;
    links.push({ href, text: href.startsWith('../') ? href.slice(3) : href, ...(notes[name] ? { note: notes[name] } : {}) });
  }
  return links;
}

export function filesSection(links: readonly FileLink[], id = 'files'): Section {
  return {
    id,
    heading: 'Files',
    blocks: [
      { kind: 'text', text: ('Every file written with this report, linked relative to it (the links keep working when the output folder is moved or zipped ' +
        'with its reports/ and figures/ folders).') },
      { kind: 'links', items: links },
    ],
  };
}
