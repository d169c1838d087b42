/** LaTeX in tests: the structure of a table file, compiling with pdflatex where it is installed, and the text of the PDF. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latexDocument } from '../../src/render/latex.js';

/** True when pdflatex runs here (the compile tests are skipped otherwise; the structure is always parsed). */
export const HAS_PDFLATEX = spawnSync('pdflatex', ['--version'], { encoding: 'utf8' }).status === 0;

export interface ParsedTable { caption: string; label: string; columns: number; header: string[]; rows: string[][] }

/** Cells of a row (unescaped & splits them), without the closing \\. */
const cellsOf = (line: string) => line.replace(/\s*\\\\\s*$/, '').split(/(?<!\\)&/).map((c) => c.trim());

/** One table file, checked for the booktabs structure; throws naming what is missing. */
export function parseLatexTable(tex: string): ParsedTable {
  const lines = tex.split('\n');
  const need = (re: RegExp, what: string) => { const i = lines.findIndex((l) => re.test(l)); if (i < 0) throw new Error(`no ${what}`); return i; };
  const begin = need(/^\\begin\{table\}/, '\\begin{table}'), end = need(/^\\end\{table\}/, '\\end{table}');
  const caption = /^\\caption\{(.*)\}$/.exec(lines[need(/^\\caption\{/, '\\caption')])![1];
  const label = /^\\label\{(.*)\}$/.exec(lines[need(/^\\label\{/, '\\label')])![1];
  const spec = /^\\begin\{tabular\}\{([lrc]+)\}$/.exec(lines[need(/^\\begin\{tabular\}/, 'tabular')])![1];
  const top = need(/^\\toprule$/, '\\toprule'), mid = need(/^\\midrule$/, '\\midrule'), bottom = need(/^\\bottomrule$/, '\\bottomrule');
  if (!(begin < top && top + 2 === mid && mid < bottom && bottom < end)) throw new Error('rules out of order');
  const header = cellsOf(lines[top + 1]);
  const rows = lines.slice(mid + 1, bottom).filter((l) => l !== '\\midrule').map(cellsOf);
  for (const [i, r] of [header, ...rows].entries()) if (r.length !== spec.length) throw new Error(`row ${i} has ${r.length} cells, the tabular ${spec.length}`);
  return { caption, label, columns: spec.length, header, rows };
}

/** The strings of the PDF's text-showing operators, one per TJ/Tj (an uncompressed PDF). */
export function pdfText(pdf: Buffer): string[] {
  const s = pdf.toString('latin1');
  const out: string[] = [];
  const str = (x: string) => x.replace(/\\([()\\])/g, '$1').replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  for (const m of s.matchAll(/\[((?:\((?:\\.|[^\\)])*\)|[^\]])*)\]\s*TJ|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
    if (m[1] !== undefined) out.push([...m[1].matchAll(/\(((?:\\.|[^\\)])*)\)/g)].map((p) => str(p[1])).join(''));
    else out.push(str(m[2]));
  }
  return out;
}

/** Compile table files in the minimal document; the PDF's text strings, or the log's error. */
export function compileTables(tables: readonly string[]): { ok: boolean; log: string; text: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-latex-'));
  try {
    writeFileSync(join(dir, 'doc.tex'), `\\pdfcompresslevel=0\n${latexDocument(tables)}`);
    const r = spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'doc.tex'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    const ok = r.status === 0;
    return { ok, log: ok ? '' : r.stdout.split('\n').filter((l) => l.startsWith('!') || /error/i.test(l)).slice(0, 8).join('\n'), text: ok ? pdfText(readFileSync(join(dir, 'doc.pdf'))) : [] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
