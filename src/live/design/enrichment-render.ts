/**
 * Rendering a context-enrichment cell (condition × world × format) and expanding a design into
 * trials. A format lays out the SAME facts (the context-enrichment paper §M: canonical prose, bullet list, key-value
 * table, paraphrased prose): prose joins each slot's facts into a paragraph, bullets puts every
 * fact on its own "- " line, key-value writes "key: value" lines; a wording k > 0 uses each
 * fact's k-th paraphrase. Every prompt ends with the same one-word request, so the first output
 * token is where the action is named (first-token scoring, docs/methods.md).
 */
import type { Design, EnrichmentFormat, EnrichmentSpec, Fact, Payoffs } from './types.js';
import { modelSpec } from './models.js';
import { cellFraming, scenarioGame } from './enrichment.js';
import { labelMap, type LabelPair } from '../prompts/index.js';
import { templatePrompt } from '../prompts/framing.js';
import { fillTemplate } from '../prompts/template.js';
import { FACT_PLACEHOLDERS } from './enrichment-formats.js';
import { slotFacts } from './enrichment-slots.js';
import { num, oneWord } from '../prompts/family.js';
import type { Action, Game, TrialSpec } from '../types.js';

export interface RenderedCell {
  readonly system?: string;
  readonly prompt: string;
  readonly labels: Readonly<Record<string, Action>>;
  readonly actionWords: readonly [string, string];
  readonly game: Game;
}

export { cellFraming } from './enrichment.js';

function fill(text: string, actions: readonly [string, string], p: Payoffs): string {
  return fillTemplate(text, FACT_PLACEHOLDERS, { C: actions[0], D: actions[1], T: num(p.T), R: num(p.R), P: num(p.P), S: num(p.S) });
}

function layout(slots: readonly (readonly Fact[])[], f: EnrichmentFormat, w: (s: string) => string): string {
  const worded = (x: Fact) => w(f.wording === 0 ? x.text : x.paraphrases![f.wording - 1]);
  const nonEmpty = slots.filter((s) => s.length > 0);
  switch (f.style!) {
    case 'prose': return nonEmpty.map((s) => s.map(worded).join(' ')).join('\n\n');
    case 'bullets': return nonEmpty.flat().map((x) => `- ${worded(x)}`).join('\n');
    case 'key-value': return nonEmpty.flat().map((x) => `${w(x.key!)}: ${x.value === undefined ? worded(x) : w(x.value)}`).join('\n');
  }
}

/** The prompt of one condition × world × format cell. Ids must exist (the design was validated). */
export function renderEnrichmentCell(e: EnrichmentSpec, condition: string, world: string, format: string): RenderedCell {
  const wd = e.worlds.find((x) => x.id === world);
  const fm = e.formats.find((x) => x.id === format);
  if (!wd || !fm || !e.conditions.some((c) => c.id === condition)) throw new Error(`no cell ${cellFraming(condition, world, format)} in the design`);
  const w = (s: string) => fill(s, e.actions, wd.payoffs);
  const slots = e.template.map((s) => slotFacts(e, s, condition, wd));
  const actions: LabelPair = [e.actions[0], e.actions[1]];
  const game = scenarioGame(e, wd.payoffs, wd.id);
  const worded = (x: Fact) => w(fm.wording === 0 ? x.text : x.paraphrases![fm.wording - 1]);
  const prompt = fm.template === undefined
    ? `${layout(slots, fm, w)}\n\n${oneWord(actions)}`
    : templatePrompt(fm.template, game, actions, Object.fromEntries(e.template.map((s, i) => [s, slots[i].map(worded).join(' ')])));
  return {
    ...(e.system === undefined ? {} : { system: w(e.system) }),
    prompt,
    labels: labelMap(actions),
    actionWords: actions,
    game,
  };
}

/** Every trial, in the order model, condition, world, format, rep; factors carry condition, world and format. */
export function expandEnrichment(design: Design, e: EnrichmentSpec): TrialSpec[] {
  const out: TrialSpec[] = [];
  const cells = e.conditions.flatMap((c) => e.worlds.flatMap((w) => e.formats.map((f) => ({
    factors: { condition: c.id, world: w.id, format: f.id }, framing: cellFraming(c.id, w.id, f.id), r: renderEnrichmentCell(e, c.id, w.id, f.id),
  }))));
  for (const m of design.models) {
    const model = modelSpec(m);
    for (const { factors, framing, r } of cells) {
      for (let rep = 0; rep < design.trials; rep++) {
        out.push({
          model, game: e.scenario, framing, rep, factors,
          ...(r.system === undefined ? {} : { system: r.system }),
          prompt: r.prompt, labels: r.labels, actionWords: r.actionWords,
          decoding: m.decoding, scoring: design.scoring,
          context: { game: r.game, framing, factors },
        });
      }
    }
  }
  return out;
}
