/**
 * The framings of a design: built-in families or story templates (inline `template`, or
 * `template_file` relative to the design file). Every template is read with the one placeholder
 * rule (src/live/prompts/template.ts) and checked for payoff equivalence before any call: its
 * prompts must present all eight payoffs and both labels (docs/methods.md §18a).
 */
import { isUtf8 } from 'node:buffer';
import { readRegular } from '../../core/input-file.js';
import { dirname, resolve } from 'node:path';
import type { Game } from '../../core/games.js';
import { FRAMING_PLACEHOLDERS, PAYOFF_PLACEHOLDERS, promptFamily, type Framing, type LabelPair } from '../prompts/index.js';
import { TEMPLATE_KINDS } from '../prompts/placeholders.js';
import { namesIn } from '../prompts/template.js';
import { framingMeanings, numberWarnings, payoffCheck } from '../prompts/payoff/index.js';
import { MAX_TEMPLATE_BYTES, templateFieldProblem, type Path, type Problem } from './problems.js';

export { MAX_TEMPLATE_BYTES } from './problems.js';
import { designMsg } from './messages.js';

/** A framing entry as a design writes it. */
export type FramingEntry = string | {
  readonly id: string; readonly family?: string; readonly labels?: readonly string[];
  readonly template?: string; readonly template_file?: string;
};

/** The single payoffs a symmetric game's {T} {R} {P} {S} state (a context-enrichment fact: "if you both {C}, each gets {R}"). */
const SYMMETRIC: Readonly<Record<string, readonly string[]>> = {
  R: ['you.CC', 'other.CC'], S: ['you.CD', 'other.DC'], T: ['you.DC', 'other.CD'], P: ['you.DD', 'other.DD'],
};

/** What placeholders named in a prompt never state: the labels and the eight payoffs ({payoffs} states them all). */
export function missingFrom(named: ReadonlySet<string>): string[] {
  if (named.has('payoffs')) return [];
  const stated = new Set([...named].flatMap((n) => [n, ...(SYMMETRIC[n] ?? [])]));
  return ['C', 'D', ...PAYOFF_PLACEHOLDERS].filter((p) => !stated.has(p));
}

/** What a framing template never states (see missingFrom). */
export function missingPlaceholders(template: string): string[] {
  return missingFrom(new Set(namesIn(template, FRAMING_PLACEHOLDERS)));
}

/**
 * A template's text: inline, or read from its file relative to the design file (a problem when
 * it cannot be: not a regular file — a FIFO, /dev/zero — refused before reading, over
 * MAX_TEMPLATE_BYTES, or not UTF-8, never read with U+FFFD in place).
 */
export function templateSource(inline: string | undefined, file: string | undefined, designFile: string): { text: string } | { problem: string } {
  if (inline !== undefined) return { text: inline };
  const r = readRegular(resolve(dirname(designFile), file!), MAX_TEMPLATE_BYTES);
  if ('size' in r) return { problem: designMsg.fileTooLarge(file!, MAX_TEMPLATE_BYTES) };
  if ('reason' in r) return { problem: designMsg.fileUnreadable(file!, r.reason) };
  if (!isUtf8(r.bytes)) return { problem: designMsg.templateNotUtf8(file!) };
  return { text: r.bytes.toString('utf8').replace(/^\uFEFF/, '') };
}

/** The template text of entry i (read from its file when it names one) and the problems found with it. */
function templateOf(f: Exclude<FramingEntry, string>, i: number, designFile: string): { text?: string; problems: Problem[]; undecided?: readonly string[] } {
  const sources = [f.family, f.template, f.template_file].filter((x) => x !== undefined).length;
  if (sources !== 1) return { problems: [{ path: ['framings', i, 'id'], message: designMsg.oneSource() }] };
  if (f.family !== undefined) return { problems: [] };
  const field = f.template !== undefined ? 'template' : 'template_file';
  const path: Path = ['framings', i, field];
  const src = templateSource(f.template, f.template_file, designFile);
  if ('problem' in src) return { problems: [{ path, message: src.problem }] };
  const text = src.text;
  const fault = templateFieldProblem(path, text, FRAMING_PLACEHOLDERS, TEMPLATE_KINDS.framing.needsPlaceholder, f.template_file);
  if (fault) return { problems: [fault] };
  const missing = missingPlaceholders(text);
  // The payoff rule runs also when a payoff is missing (both labels stated): a payoff moved into the clause of the outcome whose
  // payoff is missing is then named by that clause and both outcomes, not only as the payoff the template no longer states.
  const labelled = !missing.includes('C') && !missing.includes('D');
  const checked = labelled ? payoffCheck(text, FRAMING_PLACEHOLDERS, framingMeanings(), `framing ${f.id}`) : undefined;
  const ruled = checked?.fault;
  const misplaced = ruled !== undefined && (missing.length === 0 || missing.some((m) => m.endsWith(`.${ruled.outcome}`))) ? ruled : undefined;
  if (missing.length === 0 && checked !== undefined && misplaced === undefined) return { text, problems: [], undecided: checked.undecided };
  const why = misplaced?.message ?? designMsg.neverStates(f.id, missing);
  if (field === 'template_file') return { problems: [{ path, message: designMsg.fileFault(f.template_file!, why) }] };
  return { problems: [{ path, message: why, ...(misplaced === undefined ? {} : { valueLine: misplaced.line }) }] };
}

/**
 * The templates of a design's framings (by entry index), every problem with them, and the payoff
 * rule's warnings found while checking them (kept, so the rule runs once per template: framingWarnings).
 */
export function framingTemplates(framings: readonly FramingEntry[], designFile: string): { texts: Map<number, string>; problems: Problem[];
  undecided: Map<number, readonly string[]> } {
  const texts = new Map<number, string>();
  const undecided = new Map<number, readonly string[]>();
  const problems: Problem[] = [];
  framings.forEach((f, i) => {
    if (typeof f === 'string') return;
    const r = templateOf(f, i, designFile);
    problems.push(...r.problems);
    if (r.text !== undefined) texts.set(i, r.text);
    if (r.undecided !== undefined) undecided.set(i, r.undecided);
  });
  return { texts, problems, undecided };
}

/** A framing entry resolved: its family's default labels, or C and D for a template. */
export function resolveFraming(f: FramingEntry, text: string | undefined): Framing {
  if (typeof f === 'string') return { id: f, family: f, labels: promptFamily(f)!.defaultLabels };
  const given = f.labels === undefined ? undefined : [f.labels[0], f.labels[1]] as LabelPair;
  if (f.family !== undefined) return { id: f.id, family: f.family, labels: given ?? promptFamily(f.family)!.defaultLabels };
  return { id: f.id, labels: given ?? ['C', 'D'], template: text!, ...(f.template_file === undefined ? {} : { templateFile: f.template_file }) };
}

/**
 * Warnings of a design's framings: each clause holding a payoff that the payoff rule cannot decide,
 * and each number written in a template's text that the number rule flags (docs/methods.md §18b).
 * `undecided`: the payoff rule's warnings of each framing as found when its template was checked
 * (framingTemplates), so the rule is not run again.
 */
export function framingWarnings(framings: readonly Framing[], games: readonly Game[], at?: (framing: number, line: number) => string,
  undecided?: ReadonlyMap<number, readonly string[]>): string[] {
  const values = games.map((g) => ({ id: g.id, values: (['C', 'D'] as const).flatMap((r) => (['C', 'D'] as const).flatMap((c) => g.payoffs[r][c])) }));
  return framings.flatMap((f, i) => f.template === undefined ? [] : [
    ...(undecided?.get(i) ?? payoffCheck(f.template, FRAMING_PLACEHOLDERS, framingMeanings(), `framing ${f.id}`).undecided),
    ...numberWarnings(f.template, FRAMING_PLACEHOLDERS, values, `framing ${f.id}`, at && ((line) => at(i, line))),
  ]);
}
