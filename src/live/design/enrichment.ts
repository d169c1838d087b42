/**
 * Context-enrichment designs (the context-enrichment paper; docs/methods.md "Selective robustness"): validate a
 * `kind: context-enrichment` document — errors name the file, the line and the path in the
 * document — and resolve it into a Design whose `enrichment` holds conditions × worlds × formats.
 *
 * Substitution rule (the context-enrichment summary "Controlled Context Enrichment", the context-enrichment paper §I): the template's slots
 * have one source each — the base (shared by every cell), the worlds, or the conditions. A
 * condition fills the condition slots completely; a slot it does not name is empty. Conditions
 * therefore replace one another and never stack.
 */
import type { Document, LineCounter } from 'yaml';
import { idProblems, levelProblems, problems, templateFieldProblem, type Path, type Problem } from './problems.js';
import { nameFault } from '../../core/names-rule.js';
import { throwProblems } from '../../core/doc-problems.js';
import { resolveModels } from './models.js';
import type { Design, EnrichmentSpec, Fact, Payoffs, SlotContent } from './types.js';
export type { EnrichmentCondition, EnrichmentFormat, EnrichmentSpec, EnrichmentWorld, Fact, Payoffs, SlotContent } from './types.js';
import { enrichmentDesignSchema, type EnrichmentDocument, type FactDocument } from './enrichment-schema.js';
import { labelPairProblem } from '../prompts/index.js';
import { simulatedOptionsSchema } from '../providers/simulated.js';
import { capabilityProblems } from './capabilities.js';
import { FACT_PLACEHOLDERS, factSubject, formatCoverageProblems, formatTemplates, type EnrichmentUndecided } from './enrichment-formats.js';
import { TEMPLATE_KINDS } from '../prompts/placeholders.js';
import { slotFacts } from './enrichment-slots.js';
import { factMeanings, payoffCheck } from '../prompts/payoff/index.js';
import { designMsg } from './messages.js';


/** The composite framing label of a cell (unique per condition × world × format; part of the trial key). */
export const cellFraming = (condition: string, world: string, format: string) => `${condition}/${world}/${format}`;

const EFFECT_FACTORS = ['condition', 'world', 'format'] as const;

/** Every fact of a document with its path, for the per-fact rules. */
function* factsOf(d: EnrichmentDocument): Generator<{ fact: FactDocument; path: Path }> {
  const content = function* (c: FactDocument[] | Record<string, FactDocument[]>, path: Path) {
    if (Array.isArray(c)) { for (let i = 0; i < c.length; i++) yield { fact: c[i], path: [...path, i] }; return; }
    for (const [w, fs] of Object.entries(c)) for (let i = 0; i < fs.length; i++) yield { fact: fs[i], path: [...path, w, i] };
  };
  for (const [s, c] of Object.entries(d.base ?? {})) yield* content(c, ['base', s]);
  for (const [wi, w] of d.worlds.entries()) for (const [s, c] of Object.entries(w.slots ?? {})) yield* content(c, ['worlds', wi, 'slots', s]);
  for (const [ci, k] of d.conditions.entries()) for (const [s, c] of Object.entries(k.slots ?? {})) yield* content(c, ['conditions', ci, 'slots', s]);
}

/** Ids unique per kind; the action labels; the registered direction names two different worlds. */
function idChecks(d: EnrichmentDocument): Problem[] {
  const out: Problem[] = [];
  const unique = (kind: string, ids: string[], path: (i: number) => Path) => out.push(...idProblems(kind, ids, path));
  unique('model', d.models.map((m) => m.id), (i) => ['models', i, 'id']);
  unique('condition', d.conditions.map((c) => c.id), (i) => ['conditions', i, 'id']);
  unique('world', d.worlds.map((w) => w.id), (i) => ['worlds', i, 'id']);
  unique('format', d.formats.map((f) => f.id), (i) => ['formats', i, 'id']);
  unique('slot', d.template, (i) => ['template', i]);
  out.push(...levelProblems('game', [d.scenario], () => ['scenario']), ...cellFramingProblems(d));

  const why = labelPairProblem(d.actions);
  if (why) out.push({ path: ['actions'], message: why });
  const worldIds = d.worlds.map((w) => w.id);
  for (const side of ['higher', 'lower'] as const) {
    const w = d.registered_direction[side];
    if (!worldIds.includes(w)) out.push({ path: ['registered_direction', side], message: designMsg.directionWorld(w, worldIds) });
  }
  if (d.registered_direction.higher === d.registered_direction.lower) out.push({ path: ['registered_direction', 'lower'], message: designMsg.directionSame() });
  return out;
}

/** The longest cell framing (condition/world/format) a reader of the store must take as a name. */
function cellFramingProblems(d: EnrichmentDocument): Problem[] {
  const longest = (ids: readonly { id: string }[]) => ids.reduce((a, x, i) => (x.id.length > ids[a].id.length ? i : a), 0);
  const [c, w, f] = [longest(d.conditions), longest(d.worlds), longest(d.formats)];
  const fault = nameFault(cellFraming(d.conditions[c].id, d.worlds[w].id, d.formats[f].id));
  return fault === undefined ? [] : [{ path: ['conditions', c, 'id'], message: designMsg.cellFramingId(fault) }];
}

/** Slots: known, one source each, contents by world naming exactly the design's worlds. */
function slotChecks(d: EnrichmentDocument): Problem[] {
  const out: Problem[] = [];
  const worldIds = d.worlds.map((w) => w.id);
  const owner = new Map<string, string>();
  const claim = (slot: string, source: string, path: Path) => {
    if (!d.template.includes(slot)) { out.push({ path, message: designMsg.unknownSlot(slot, d.template) }); return; }
    const o = owner.get(slot);
    if (o === undefined) owner.set(slot, source);
    else if (o !== source) out.push({ path, message: designMsg.slotTwoSources(slot, o) });
  };
  const byWorld = (c: unknown, path: Path) => {
    if (Array.isArray(c)) return;
    const keys = Object.keys(c as object);
    for (const k of keys) if (!worldIds.includes(k)) out.push({ path: [...path, k], message: designMsg.unknownWorldKey(k, worldIds) });
    for (const w of worldIds) if (!keys.includes(w)) out.push({ path, message: designMsg.missingWorldKey(w) });
  };
  for (const [s, c] of Object.entries(d.base ?? {})) { claim(s, 'base', ['base', s]); byWorld(c, ['base', s]); }
  d.worlds.forEach((w, i) => { for (const s of Object.keys(w.slots ?? {})) claim(s, 'worlds', ['worlds', i, 'slots', s]); });
  d.conditions.forEach((k, i) => {
    for (const [s, c] of Object.entries(k.slots ?? {})) { claim(s, 'conditions', ['conditions', i, 'slots', s]); byWorld(c, ['conditions', i, 'slots', s]); }
  });
  d.template.forEach((s, i) => { if (!owner.has(s)) out.push({ path: ['template', i], message: designMsg.slotNeverFilled(s) }); });
  return out;
}

/**
 * Facts: known placeholders; a key for key-value formats; enough paraphrases for every wording. The payoff rule runs once
 * per distinct fact text; its warnings go to `undecided` (by text) for enrichmentWarnings.
 */
function factChecks(d: EnrichmentDocument, undecided: Map<string, readonly string[]>): Problem[] {
  const out: Problem[] = [];
  const kv = d.formats.find((f) => f.style === 'key-value');
  const deepest = d.formats.reduce<{ id: string; wording: number } | undefined>((m, f) => ((f.wording ?? 0) > (m?.wording ?? 0) ? { id: f.id,
    wording: f.wording! } : m), undefined);
  for (const { fact, path } of factsOf(d)) {
    const texts: [string, string | undefined][] = [['text', fact.text], ['value', fact.value], ['key', fact.key]];
    (fact.paraphrases ?? []).forEach((p, i) => texts.push([`paraphrases.${i}`, p]));
    for (const [field, t] of texts) {
      const fault = t === undefined ? undefined
        : templateFieldProblem([...path, ...field.split('.').map((x) => (/^\d+$/.test(x) ? Number(x) : x))], t, FACT_PLACEHOLDERS,
          TEMPLATE_KINDS.fact.needsPlaceholder);
      const misplaced = fault || t === undefined || field === 'key' || undecided.has(t) ? undefined : factPayoffs(t, undecided);
      if (fault) out.push(fault);
      else if (misplaced) out.push({ path: [...path, ...field.split('.').map((x) => (/^\d+$/.test(x) ? Number(x) : x))], message: misplaced.message });
    }
    if (kv && fact.key === undefined) out.push({ path: [...path, 'key'], message: designMsg.keyRequired(kv.id) });
    const have = fact.paraphrases?.length ?? 0;
    if (deepest && have < deepest.wording) out.push({ path: [...path, 'paraphrases'], message: designMsg.paraphraseRequired(deepest.id, deepest.wording,
      have) });
  }
  return out;
}

/** The payoff rule on a fact text: its refusal (at its field), its undecided clauses kept by text. */
function factPayoffs(t: string, undecided: Map<string, readonly string[]>): { line: number; message: string } | undefined {
  const checked = payoffCheck(t, FACT_PLACEHOLDERS, factMeanings, 'fact', factSubject(t));
  undecided.set(t, checked.undecided);
  return checked.fault;
}

/** Simulated agents: strict options; effects match factor levels that exist. */
function simulatedChecks(d: EnrichmentDocument): Problem[] {
  const out: Problem[] = [];
  const levels: Record<(typeof EFFECT_FACTORS)[number], string[]> = {
    condition: d.conditions.map((c) => c.id), world: d.worlds.map((w) => w.id), format: d.formats.map((f) => f.id),
  };
  d.models.forEach((m, i) => {
    if (m.provider !== 'simulated') return;
    const r = simulatedOptionsSchema.safeParse(m.options ?? {});
    if (!r.success) { out.push(...problems(r.error.issues, ['models', i, 'options'])); return; }
    r.data.effects.forEach((e, j) => {
      for (const [k, v] of Object.entries(e.when)) {
        const path = ['models', i, 'options', 'effects', j, 'when', k];
        if (!(EFFECT_FACTORS as readonly string[]).includes(k)) out.push({ path, message: designMsg.effectFactor(k) });
        else if (!levels[k as keyof typeof levels].includes(v)) out.push({ path, message: designMsg.effectLevel(k, v, levels[k as keyof typeof levels]) });
      }
    });
  });
  return out;
}

/** The rules a schema cannot state, in document order of concern. */
function crossChecks(d: EnrichmentDocument, facts: Map<string, readonly string[]>): Problem[] {
  return [...idChecks(d), ...slotChecks(d), ...factChecks(d, facts), ...simulatedChecks(d), ...capabilityProblems(d.models, d.scoring ?? 'logprobs',
    d.decoding?.temperature)];
}

const fact = (f: FactDocument): Fact => ({
  ...(f.key === undefined ? {} : { key: f.key }), text: f.text,
  ...(f.value === undefined ? {} : { value: f.value }), ...(f.paraphrases === undefined ? {} : { paraphrases: f.paraphrases }),
});
const content = (c: FactDocument[] | Record<string, FactDocument[]>): SlotContent =>
  Array.isArray(c) ? c.map(fact) : Object.fromEntries(Object.entries(c).map(([w, fs]) => [w, fs.map(fact)]));
const slotsOf = (s: Record<string, FactDocument[] | Record<string, FactDocument[]>> | undefined) =>
  Object.fromEntries(Object.entries(s ?? {}).map(([k, c]) => [k, content(c)]));

function resolveEnrichment(d: EnrichmentDocument, texts: ReadonlyMap<number, string>): Design {
  const scoring = d.scoring ?? 'logprobs';
  const enrichment: EnrichmentSpec = {
    kind: 'context-enrichment', scenario: d.scenario, actions: [d.actions[0], d.actions[1]], payoffs: d.payoffs,
    ...(d.system === undefined ? {} : { system: d.system }),
    template: d.template, base: slotsOf(d.base),
    conditions: d.conditions.map((c) => ({ id: c.id, function: c.function, slots: slotsOf(c.slots) })),
    worlds: d.worlds.map((w) => ({
      id: w.id, ...(w.description === undefined ? {} : { description: w.description }),
      slots: Object.fromEntries(Object.entries(w.slots ?? {}).map(([k, fs]) => [k, fs.map(fact)])), payoffs: w.payoffs ?? d.payoffs,
    })),
    direction: { higher: d.registered_direction.higher, lower: d.registered_direction.lower },
    formats: d.formats.map((f, i) => ({
      id: f.id, wording: f.wording ?? 0, ...(f.style === undefined ? { template: texts.get(i)! } : { style: f.style }),
      ...(f.template_file === undefined ? {} : { templateFile: f.template_file }),
    })),
    ...(d.published_reference === undefined ? {} : { publishedReference: d.published_reference }),
  };
  return {
    name: d.name,
    ...(d.description === undefined ? {} : { description: d.description }),
    synthetic: d.synthetic ?? false,
    models: resolveModels(d, scoring),
    games: [scenarioGame(enrichment, d.payoffs)],
    framings: [],
    trials: d.trials,
    scoring,
    enrichment,
  };
}

/** The scenario as a symmetric 2×2 game: payoffs[my action][other's action] = [mine, other's]. */
export function scenarioGame(e: Pick<EnrichmentSpec, 'scenario' | 'payoffs'>, p: Payoffs, world?: string): Design['games'][number] {
  const same = p.T === e.payoffs.T && p.R === e.payoffs.R && p.P === e.payoffs.P && p.S === e.payoffs.S;
  const id = world === undefined || same ? e.scenario : `${e.scenario}-${world}`;
  return { id, name: id, payoffs: { C: { C: [p.R, p.R], D: [p.S, p.T] }, D: { C: [p.T, p.S], D: [p.P, p.P] } } };
}

/**
 * Validate a parsed `kind: context-enrichment` document (called by parseDesign); with the design, the payoff rule's
 * warnings found while checking it (for enrichmentWarnings).
 */
export function parseEnrichment(data: object, doc: Document, lc: LineCounter, file: string): { design: Design; undecided: EnrichmentUndecided } {
  const r = enrichmentDesignSchema.safeParse(data);
  const formats = r.success ? formatTemplates(r.data, file) : undefined;
  const facts = new Map<string, readonly string[]>();
  const refuse = (found: Problem[]) => throwProblems(found, doc, lc, (line, path, message) => designMsg.designField(file, line, path, message));
  refuse(r.success ? [...formats!.problems, ...crossChecks(r.data, facts)] : problems(r.error.issues));
  const design = resolveEnrichment(r.data!, formats!.texts);
  refuse(formatCoverageProblems(design.enrichment!, (s, c, w) => slotFacts(design.enrichment!, s, c, design.enrichment!.worlds.find((x) => x.id === w)!)));
  return { design, undecided: { formats: formats!.undecided, facts } };
}
