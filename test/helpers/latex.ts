/** LaTeX in tests: the structure of a table file, compiling with pdflatex where it is installed, and the text of the PDF. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latexDocument } from '../../src/render/latex.js';

/** True when pdflatex runs here (the compile tests are skipped otherwise; the structure is always parsed). */
export const HAS_PDFLATEX = spawnSync('pdflatex', ['--version'], { encoding: 'utf8' }).status === 0;

export interface ParsedTable {
  caption: string; label: string; columns: number; header: string[];
  /** The grouped header row (a group's name in each of its columns), when there is one. */
  groups: string[];
  /** Body rows (lines set under one another joined by a space); section headings left out. */
  rows: string[][];
  /** Section headings set across the table. */
  sections: string[];
  long: boolean;
}

/** A cell's text: a stacked cell (\begin{tabular}…\end{tabular}) as its lines joined by a space; a row-start {} dropped. */
const cellText = (c: string) => c.replace(/^\\begin\{tabular\}\[[tb]\]\{@\{\}[lrc]@\{\}\}(.*)\\end\{tabular\}$/, (_, x: string) => x.split('\\\\').join(' ')).replace(/^\{\}/, '').replace(/ \{\}\[/, ' [');

/** Cells of a row (unescaped & splits them, outside a stacked cell), without the closing \\. */
const cellsOf = (line: string) => line.replace(/\s*\\\\\s*$/, '').split(/(?<!\\)&/).map((c) => cellText(c.trim()));

/** A grouped header row's cells: each \multicolumn{n}{c}{name} as n cells holding the name. */
const groupCells = (line: string) => cellsOf(line).flatMap((c) => {
  const m = /^\\multicolumn\{(\d+)\}\{c\}\{(.*)\}$/.exec(c);
  return m ? Array<string>(Number(m[1])).fill(m[2]) : [c];
});

/** The first part of one table file (a float or a longtable), checked for the booktabs structure; throws naming what is missing. */
export function parseLatexTable(tex: string): ParsedTable {
  const lines = tex.split('\n');
  const need = (re: RegExp, what: string) => { const i = lines.findIndex((l) => re.test(l)); if (i < 0) throw new Error(`no ${what}`); return i; };
  const long = lines.some((l) => l.startsWith('\\begin{longtable}'));
  const capLine = lines[need(/^\\caption\{/, '\\caption')];
  const caption = /^\\caption\{(.*?)\}(?:\\label\{.*\}\\\\)?$/.exec(capLine)![1];
  const label = /\\label\{([^}]*)\}/.exec(long ? capLine : lines[need(/^\\label\{/, '\\label')])![1];
  const spec = /^\\begin\{(?:tabular|longtable)\}\{([lrc]+)\}$/.exec(lines[need(/^\\begin\{(tabular|longtable)\}\{/, 'tabular')])![1];
  const top = need(/^\\toprule$/, '\\toprule'), mid = need(/^\\midrule$/, '\\midrule');
  const bodyStart = long ? need(/^\\endfoot$/, '\\endfoot') : mid;
  const bottom = long ? need(/^\\end\{longtable\}$/, '\\end{longtable}') : need(/^\\bottomrule$/, '\\bottomrule');
  if (!(top < mid && mid <= bodyStart && bodyStart < bottom)) throw new Error('rules out of order');
  const head = lines.slice(top + 1, mid);
  const header = cellsOf(head[head.length - 1]);
  const groups = head.length === 3 ? groupCells(head[0]) : [];
  if (head.length === 3 && !/^(\\cmidrule\(lr\)\{\d+-\d+\} ?)+$/.test(head[1])) throw new Error('no \\cmidrule under the grouped header');
  const body = lines.slice(bodyStart + 1, bottom).filter((l) => l !== '\\midrule' && l !== '\\addlinespace');
  const sections = body.filter((l) => l.startsWith('\\multicolumn')).map((l) => /\\emph\{(.*)\}\} \\\\$/.exec(l)![1]);
  const rows = body.filter((l) => !l.startsWith('\\multicolumn')).map(cellsOf);
  for (const [i, r] of [header, ...(groups.length ? [groups] : []), ...rows].entries()) {
    if (r.length !== spec.length) throw new Error(`row ${i} has ${r.length} cells, the tabular ${spec.length}`);
  }
  return { caption, label, columns: spec.length, header, groups, rows, sections, long };
}

/** An interval cell "p [lo, hi]" as its three numbers' text (lo and hi '' when it has none). */
export function intervalParts(cell: string): [string, string, string] {
  const m = /^(\S*) ?\[(.*), (.*)\]$/.exec(cell);
  return m ? [m[1], m[2], m[3]] : [cell, '', ''];
}

/** The strings of the PDF's text-showing operators, one per TJ/Tj (an uncompressed PDF). */
export function pdfText(pdf: Buffer): string[] {
  const s = pdf.toString('latin1');
  const out: string[] = [];
  const str = (x: string) => x.replace(/\\([()\\])/g, '$1').replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  for (const m of s.matchAll(/\[((?:\((?:\\.|[^\\)])*\)|[^\]()])*)\]\s*TJ|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
    if (m[1] !== undefined) out.push([...m[1].matchAll(/\(((?:\\.|[^\\)])*)\)/g)].map((p) => str(p[1])).join(''));
    else out.push(str(m[2]));
  }
  return out;
}

export interface Compiled {
  ok: boolean;
  /** The log's error lines (when not ok). */
  log: string;
  text: string[];
  /** The log's "Overfull \hbox" and "Float too large" warnings. */
  overfull: string[];
}

/** Compile table files in the minimal document (one column of 345 pt, or two of 240 pt); the PDF's text strings, the log's errors and overfull boxes. */
export function compileTables(tables: readonly string[], layout: 'one-column' | 'two-column' = 'one-column'): Compiled {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-latex-'));
  try {
    writeFileSync(join(dir, 'doc.tex'), `\\pdfcompresslevel=0\n${latexDocument(tables, layout)}`);
    const r = spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'doc.tex'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    const ok = r.status === 0;
    const log = readFileSync(join(dir, 'doc.log'), 'latin1');
    const overfull = log.split('\n').filter((l) => /Overfull \\hbox|Float too large/.test(l));
    return { ok, overfull, log: ok ? '' : r.stdout.split('\n').filter((l) => l.startsWith('!') || /error/i.test(l)).slice(0, 8).join('\n'), text: ok ? pdfText(readFileSync(join(dir, 'doc.pdf'))) : [] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
