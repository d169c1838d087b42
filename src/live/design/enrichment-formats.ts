/**
 * Format templates of a context-enrichment design: a format may lay out a cell's facts in its own
 * words, `{ id, template | template_file }`, each slot a placeholder (its facts as prose) beside
 * the framing placeholders ({C} {D} {payoffs} {you.XY} {other.XY} {answer}; a slot shadows a
 * placeholder of the same name). Formats present the same facts, so every slot must appear; and
 * every cell's prompt must state the whole payoff matrix (docs/methods.md §18a).
 */
import { FACT_PLACEHOLDERS, FRAMING_PLACEHOLDERS, TEMPLATE_KINDS } from '../prompts/placeholders.js';
import { namesIn } from '../prompts/template.js';
import { factMeanings, framingMeanings, numberWarnings, payoffCheck } from '../prompts/payoff/index.js';
import type { EnrichmentDocument } from './enrichment-schema.js';
import { missingFrom, templateSource } from './framings.js';
import { templateFieldProblem, type Problem } from './problems.js';
import type { EnrichmentSpec, Fact } from './types.js';
import { designMsg } from './messages.js';

export { FACT_PLACEHOLDERS } from '../prompts/placeholders.js';

/** The placeholders a format template of a design knows: its slots and the framing's. */
export const formatPlaceholders = (slots: readonly string[]): string[] => [...new Set([...slots, ...FRAMING_PLACEHOLDERS])];

/**
 * The payoff rule's warnings found while a context-enrichment design was checked — per template format (by index) and per
 * fact text — kept so that enrichmentWarnings does not run the rule again (it runs once per format and fact text).
 */
export interface EnrichmentUndecided {
  readonly formats: ReadonlyMap<number, readonly string[]>;
  readonly facts: ReadonlyMap<string, readonly string[]>;
}

/** How the warnings name a fact: its text, cut at 40 characters. */
export const factSubject = (t: string): string => `fact ${JSON.stringify(t.length > 40 ? `${t.slice(0, 37)}...` : t)}`;

/** The template text of every template format (by index), the problems with them, and the payoff rule's warnings of each. */
export function formatTemplates(d: EnrichmentDocument, designFile: string): { texts: Map<number, string>; problems: Problem[];
  undecided: Map<number, readonly string[]> } {
  const texts = new Map<number, string>();
  const undecided = new Map<number, readonly string[]>();
  const problems: Problem[] = [];
  d.formats.forEach((f, i) => {
    if ([f.style, f.template, f.template_file].filter((x) => x !== undefined).length !== 1) {
      problems.push({ path: ['formats', i, 'id'], message: designMsg.oneFormatSource() });
      return;
    }
    if (f.style !== undefined) return;
    const path = ['formats', i, f.template !== undefined ? 'template' : 'template_file'];
    const src = templateSource(f.template, f.template_file, designFile);
    if ('problem' in src) { problems.push({ path, message: src.problem }); return; }
    const fault = templateFieldProblem(path, src.text, formatPlaceholders(d.template), TEMPLATE_KINDS.framing.needsPlaceholder, f.template_file);
    if (fault) { problems.push(fault); return; }
    const named = namesIn(src.text, formatPlaceholders(d.template));
    const absent = d.template.filter((s) => !named.includes(s));
    const checked = payoffCheck(src.text, formatPlaceholders(d.template), framingMeanings(d.template), `format ${f.id}`);
    const misplaced = checked.fault;
    if (absent.length > 0) problems.push({ path, message: designMsg.formatSlotsMissing(f.id, absent) });
    else if (misplaced !== undefined) {
      problems.push({ path, message: f.template_file === undefined ? misplaced.message : designMsg.fileFault(f.template_file, misplaced.message) });
    }
    else { texts.set(i, src.text); undecided.set(i, checked.undecided); }
  });
  return { texts, problems, undecided };
}

/** The placeholders of a fact as a format of wording k shows it. */
function factNames(x: Fact, wording: number): string[] {
  return namesIn(wording === 0 ? x.text : x.paraphrases?.[wording - 1] ?? x.text, FACT_PLACEHOLDERS);
}

/** A problem for the first cell of each template format whose prompt would not state the whole payoff matrix. */
export function formatCoverageProblems(e: EnrichmentSpec, cellFacts: (slot: string, condition: string, world: string) => readonly Fact[]): Problem[] {
  const out: Problem[] = [];
  e.formats.forEach((f, i) => {
    if (f.template === undefined) return;
    const own = namesIn(f.template, formatPlaceholders(e.template)).filter((n) => !e.template.includes(n));
    for (const c of e.conditions) {
      for (const w of e.worlds) {
        const named = new Set([...own, ...e.template.flatMap((s) => cellFacts(s, c.id, w.id).flatMap((x) => factNames(x, f.wording)))]);
        const missing = missingFrom(named);
        if (missing.length > 0) {
          out.push({ path: ['formats', i, f.templateFile === undefined ? 'template' : 'template_file'], message: designMsg.formatNeverStates(f.id,
            `${c.id}/${w.id}`, missing) });
          return;
        }
      }
    }
  });
  return out;
}

/** Every text of a fact that a prompt may show (its text, value and paraphrases). */
const factTexts = (x: Fact): string[] => [x.text, ...(x.value === undefined ? [] : [x.value]), ...(x.paraphrases ?? [])];

/**
 * Warnings of a context-enrichment design (docs/methods.md §18b): clauses of its format templates
 * and facts holding a payoff the payoff rule cannot decide, and numbers the number rule flags.
 * `undecided`: the payoff rule's warnings as found when the design was checked (parseEnrichment), so
 * the rule is not run again; a format or fact it does not hold is checked here.
 */
export function enrichmentWarnings(e: EnrichmentSpec, at?: (format: number, line: number) => string, undecided?: EnrichmentUndecided): string[] {
  const values = e.worlds.map((w) => ({ id: w.id, values: [w.payoffs.T, w.payoffs.R, w.payoffs.P, w.payoffs.S] }));
  const formats = e.formats.flatMap((f, i) => f.template === undefined ? [] : [
    ...(undecided?.formats.get(i) ?? payoffCheck(f.template, formatPlaceholders(e.template), framingMeanings(e.template), `format ${f.id}`).undecided),
    ...numberWarnings(f.template, formatPlaceholders(e.template), values, `format ${f.id}`, at && ((line) => at(i, line))),
  ]);
  const contents = [...Object.values(e.base), ...e.worlds.map((w) => w.slots), ...e.conditions.flatMap((c) => Object.values(c.slots))];
  const facts = [...new Set(contents.flatMap((c) => (Array.isArray(c) ? c : Object.values(c).flat()) as Fact[]).flatMap(factTexts))];
  return [...formats, ...facts.flatMap((t) => [
    ...(undecided?.facts.get(t) ?? payoffCheck(t, FACT_PLACEHOLDERS, factMeanings, factSubject(t)).undecided),
    ...numberWarnings(t, FACT_PLACEHOLDERS, values, factSubject(t)),
  ])];
}
