/**
 * A story template cut into clauses, the unit of the payoff rule (docs/methods.md §18b): a clause
 * is a sentence (ended by . ! ? or ;) of a paragraph or of a list item; a list item of a list whose
 * lead-in line ends with ":" and names actions ("If you both {C}:") takes the lead-in's actions
 * when its own do not decide an outcome; a cell of a Markdown table whose header row names actions
 * is a clause with its row's and column's actions (row: yours, column: the other's, unless a
 * header names the player); a row of a table whose header names no action is one clause, each
 * cell read after its column's header.
 */
import type { Role } from './roles.js';
import type { TemplatePart } from '../template.js';

/** Text, or a placeholder with its template line; `fallback`: the role of an action a table header gives. */
export type Atom = { readonly text: string } | { readonly name: string; readonly line: number; readonly fallback?: Role };

export interface Clause {
  readonly atoms: readonly Atom[];
  /** The lead-in of the list the clause is an item of, if any. */
  readonly leadIn?: Clause;
}

/** A boundary inside a clause that no role reaches across (between a table's headers and its cell). */
export const BOUNDARY = '\u0003';

type Line = Atom[];

/** The template's lines as atoms (a placeholder never spans lines). */
function linesOf(parts: readonly TemplatePart[]): Line[] {
  const lines: Line[] = [[]];
  for (const p of parts) {
    if ('name' in p) { lines[lines.length - 1].push({ name: p.name, line: lines.length }); continue; }
    p.text.split('\n').forEach((t, i) => {
      if (i > 0) lines.push([]);
      if (t !== '') lines[lines.length - 1].push({ text: t });
    });
  }
  return lines;
}

const flat = (l: readonly Atom[]) => l.map((a) => ('text' in a ? a.text : '\u0001')).join('');
const ITEM = /^\s*(?:[-*+•]|\d{1,2}[.)]|[a-zA-Z][.)])\s+/;

type Unit = { kind: 'prose' | 'item'; atoms: Atom[] } | { kind: 'table'; rows: Line[] } | { kind: 'blank' };

/** Drop the list marker at the start of an item's line. */
function unmarked(line: Line): Line {
  const first = line[0];
  if (first === undefined || !('text' in first)) return line;
  return [{ text: first.text.replace(ITEM, '') }, ...line.slice(1)];
}

/** Paragraphs, list items (with their indented continuation lines) and tables. */
function unitsOf(lines: readonly Line[]): Unit[] {
  const units: Unit[] = [];
  for (const line of lines) {
    const text = flat(line);
    const last = units[units.length - 1];
    if (/^\s*$/.test(text)) { if (last?.kind !== 'blank') units.push({ kind: 'blank' }); continue; }
    if (/^\s*\|/.test(text)) {
      if (/^[\s|:-]+$/.test(text)) continue;
      if (last?.kind === 'table') last.rows.push(line); else units.push({ kind: 'table', rows: [line] });
    } else if (ITEM.test(text)) {
      units.push({ kind: 'item', atoms: unmarked(line) });
    } else if ((last?.kind === 'prose' || (last?.kind === 'item' && /^\s/.test(text)))) {
      last.atoms.push({ text: ' ' }, ...line);
    } else {
      units.push({ kind: 'prose', atoms: [...line] });
    }
  }
  return units;
}

const ABBREVIATION = /(?:^|[^\p{L}])(?:e\.g|i\.e|etc|vs|cf|mr|mrs|ms|dr|no|st)$/iu;

/** A paragraph or item cut into sentences at . ! ? ; followed by a space or the end. */
function sentences(atoms: readonly Atom[]): Atom[][] {
  const out: Atom[][] = [[]];
  for (const a of atoms) {
    if (!('text' in a)) { out[out.length - 1].push(a); continue; }
    let from = 0;
    for (const m of a.text.matchAll(/[.!?;](?=\s|$)/g)) {
      const end = m.index + 1;
      if (m[0] === '.' && ABBREVIATION.test(a.text.slice(0, m.index))) continue;
      out[out.length - 1].push({ text: a.text.slice(from, end) });
      out.push([]);
      from = end;
    }
    if (from < a.text.length) out[out.length - 1].push({ text: a.text.slice(from) });
  }
  return out.filter((s) => s.length > 0);
}

/** The cells of a table row (split at | in its text). */
function cells(row: Line): Line[] {
  const out: Line[] = [[]];
  for (const a of row) {
    if (!('text' in a)) { out[out.length - 1].push(a); continue; }
    a.text.split('|').forEach((t, i) => {
      if (i > 0) out.push([]);
      if (t !== '') out[out.length - 1].push({ text: t });
    });
  }
  if (/^\s*$/.test(flat(out[0]))) out.shift();
  if (out.length > 0 && /^\s*$/.test(flat(out[out.length - 1]))) out.pop();
  return out;
}

const ACTIONS = new Set(['C', 'D']);
const withFallback = (line: Line, role: Role): Atom[] => line.map((a) => ('name' in a && ACTIONS.has(a.name) ? { ...a, fallback: role } : a));

/** A table's clauses: one per cell of a payoff matrix, one per row of a table of outcomes. */
function tableClauses(rows: readonly Line[]): Clause[] {
  const [header, ...body] = rows.map(cells);
  if (header === undefined) return [];
  const matrix = header.some((c) => c.some((a) => 'name' in a && ACTIONS.has(a.name)));
  const sep: Atom = { text: ` ${BOUNDARY} ` };
  if (!matrix) return body.map((r) => ({ atoms: r.flatMap((c, j) => [sep, ...(header[j] ?? []), { text: ' ' }, ...c]) }));
  const offset = header.length - (body[0]?.length ?? header.length);
  return body.flatMap((r) => r.slice(1).map((c, j) => ({
    atoms: [...withFallback(r[0], 'you'), sep, ...withFallback(header[j + 1 + offset] ?? [], 'other'), sep, ...c],
  })));
}

const endsWithColon = (atoms: readonly Atom[]) => /:\s*$/.test(flat(atoms));
const namesAction = (atoms: readonly Atom[]) => atoms.some((a) => 'name' in a && ACTIONS.has(a.name));

/** Every clause of a parsed template, in order. */
export function clausesOf(parts: readonly TemplatePart[]): Clause[] {
  const out: Clause[] = [];
  let leadIn: Clause | undefined;
  for (const u of unitsOf(linesOf(parts))) {
    if (u.kind === 'blank') continue;
    if (u.kind === 'table') { out.push(...tableClauses(u.rows)); leadIn = undefined; continue; }
    const ss = sentences(u.atoms).map((atoms) => ({ atoms, ...(u.kind === 'item' && leadIn ? { leadIn } : {}) }));
    out.push(...ss);
    const last = ss[ss.length - 1];
    if (last && endsWithColon(last.atoms) && namesAction(last.atoms)) leadIn = { atoms: last.atoms };
    else if (u.kind === 'prose') leadIn = undefined;
  }
  return out;
}

/** A clause as the messages quote it: its words with placeholders as written, on one line, at most 90 characters. */
export function clauseText(c: Clause): string {
  const s = c.atoms.map((a) => ('text' in a ? a.text.replace(BOUNDARY, '|') : `{${a.name}}`)).join('').replace(/\s+/g, ' ').trim();
  return s.length > 90 ? `${s.slice(0, 87)}...` : s;
}
