/**
 * Where a model's R and shift appear, the comprehension mark goes beside them (docs/methods.md
 * §18c): a `comprehension` column at the end of reports/table3.csv (its rows are the models, then
 * Pooled), a note under the table in table3.tex, a note in the report's Table 3 section, and a
 * section of its own in the report. A run without probes keeps these files as they are.
 */
import { basename } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import { latexEscape } from '../../render/latex-escape.js';
import { num, type Section } from '../../render/html.js';
import { toCsv } from '../../render/csv.js';
import Papa from 'papaparse';
import { NOT_SHOWN, pairVerdicts, verdictReason, type Comprehension } from './comprehension.js';
import { comprehensionMsg } from './messages.js';

/** table3.csv with the `comprehension` column last: its rows in `rowOrder` (the models, then Pooled), each row's mark. */
function markedCsv(csv: string, rowOrder: readonly string[], marks: ReadonlyMap<string, string>): string {
  const parsed = Papa.parse<string[]>(csv.trimEnd(), { skipEmptyLines: false });
  const [header, ...rows] = parsed.data;
  if (rows.length !== rowOrder.length) throw new Error(`table3.csv has ${rows.length} rows, Table 3 ${rowOrder.length}`);
  // The cells as written (numbers and neutralized text alike), the mark after them.
  const kept = (cells: readonly string[]) => cells.map((numberText) => ({ numberText }));
  return toCsv([...header, 'comprehension'], rows.map((r, i) => [...kept(r), marks.get(rowOrder[i]) ?? 'not measured']));
}

/** The note under Table 3 naming the models whose R and shift are marked ("" when none is), by the verdicts of the contrast's pair. */
export function table3Note(c: Comprehension, marks: ReadonlyMap<string, string>, models: readonly string[], pair: readonly [string, string]): string {
  const marked = models.filter((m) => marks.get(m)?.startsWith(NOT_SHOWN));
  if (marked.length === 0) return '';
  const verdicts = pairVerdicts(c, pair);
  const perModel = marked.map((m) => {
    const vs = verdicts.filter((v) => v.model === m && !v.shown);
    const each = vs.map((v) => `${v.framing}: ${v.correct}/${v.asked} probes answered with the game's payoff, ${verdictReason(v, c.threshold)}`);
    return `${m} (${each.join('; ')})`;
  });
  return comprehensionMsg.table3Note(perModel);
}

function markedTex(tex: string, note: string): string {
  if (note === '') return tex;
  const line = `\\par\\smallskip{\\footnotesize ${latexEscape(note)}}`;
  const at = tex.lastIndexOf('\\end{table}');
  return at < 0 ? `${tex.trimEnd()}\n${line}\n` : `${tex.slice(0, at)}${line}\n${tex.slice(at)}`;
}

/** The files with table3.csv and table3.tex marked (the other files as they are). */
export function markedTable3Files(files: readonly OutputFile[], note: string, marks: ReadonlyMap<string, string>,
  rowOrder: readonly string[]): OutputFile[] {
  return files.map((f) => {
    const name = basename(f.path);
    if (typeof f.content !== 'string') return f;
    if (name === 'table3.csv') return { ...f, content: markedCsv(f.content, rowOrder, marks) };
    if (name === 'table3.tex') return { ...f, content: markedTex(f.content, note) };
    return f;
  });
}

/** The report's section of the probes: the verdict per model × framing, with its reason. */
export function comprehensionSection(c: Comprehension, name: (id: string) => string = (id) => id): Section {
  const marked = c.verdicts.filter((v) => !v.shown).length;
  return {
    id: 'comprehension',
    heading: 'Comprehension probes',
    blocks: [
      { kind: 'text', text: comprehensionMsg.sectionText(c.threshold, marked) },
      {
        kind: 'table',
        columns: ['Model', 'Framing', num('Probes'), num('Correct'), num('Accuracy'), num('95% Wilson'), 'Verdict'],
        rows: c.verdicts.map((v) => [name(v.model), name(v.framing), num(String(v.asked)), num(String(v.correct)), num(v.accuracy.toFixed(3)),
          num(`[${v.lo.toFixed(3)}, ${v.hi.toFixed(3)}]`), v.shown ? 'shown' : `${NOT_SHOWN}: ${verdictReason(v, c.threshold)}`]),
      },
    ],
  };
}

/** One warning per framing not shown payoff-equivalent for a model. */
export function comprehensionWarnings(c: Comprehension): string[] {
  return c.verdicts.filter((v) => !v.shown).map((v) => comprehensionMsg.flagged(v.model, v.framing, v.correct, v.asked, verdictReason(v, c.threshold)));
}

/** A section (the report's Table 3) with the note of its marked models added; the section as it is when none is. */
export function withTable3Note(s: Section, note: string): Section {
  return note === '' ? s : { ...s, blocks: [...s.blocks, { kind: 'text', text: note }] };
}
