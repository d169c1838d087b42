import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { designHash, expandDesign, loadDesign, parseDesign } from '../../src/live/design/design.js';
import { enrichmentJsonSchema } from '../../src/live/design/enrichment-schema.js';
import { renderEnrichmentCell } from '../../src/live/design/enrichment-render.js';
import { reviewPrompts } from '../../src/live/prompts/review.js';
import { createSimulatedProvider, simulatedPCooperate } from '../../src/live/providers/simulated.js';
import { UserError } from '../../src/core/errors.js';
import { ROOT } from '../helpers/cli.js';

const FIX = join(ROOT, 'test/fixtures/enrichment');
const DESIGNS = join(ROOT, 'data/designs');
const SMALL = readFileSync(join(FIX, 'small.yaml'), 'utf8');
const message = (f: () => unknown): string => {
  try { f(); } catch (e) { expect(e).toBeInstanceOf(UserError); return (e as Error).message; }
  throw new Error('expected a UserError');
};

describe('the context-enrichment paper pilot (hospital-transfer.yaml)', () => {
  const d = loadDesign(join(DESIGNS, 'hospital-transfer.yaml'));
  const e = d.enrichment!;
  const specs = expandDesign(d);

  it('is 2 worlds × 5 conditions × 4 formats × 10 calls per model, TRANSFER/RETAIN, PD payoffs 5 > 3 > 1 > 0', () => {
    expect(e.conditions.map((c) => c.id)).toEqual(['minimal', 'neutral-padding', 'generic-social', 'descriptive-grounding', 'normative-grounding']);
    expect(e.worlds.map((w) => w.id)).toEqual(['regional', 'local']);
    expect(e.direction).toEqual({ higher: 'regional', lower: 'local' });
    expect(e.formats.map((f) => [f.id, f.style, f.wording])).toEqual([
      ['canonical-prose', 'prose', 0], ['bullets', 'bullets', 0], ['key-value', 'key-value', 0], ['paraphrased-prose', 'prose', 1]]);
    expect(e.actions).toEqual(['TRANSFER', 'RETAIN']);
    expect(e.payoffs).toEqual({ T: 5, R: 3, P: 1, S: 0 });
    expect(d.trials).toBe(10);
    expect(specs).toHaveLength(2 * 2 * 5 * 4 * 10);
    expect(new Set(specs.map((s) => `${s.model.id}|${s.game}|${s.framing}|${s.rep}`)).size).toBe(specs.length);
  });

  it('asks for the seed settings: temperature 0.7, 64 tokens, 20 alternatives, reasoning effort none, logprobs, Responses API', () => {
    for (const m of d.models) {
      expect(m.provider).toBe('openai-responses');
      expect(m.apiKeyEnv).toBe('OPENAI_API_KEY');
      expect(m.decoding).toEqual({ temperature: 0.7, maxTokens: 64, topLogprobs: 20, reasoningEffort: 'none' });
    }
    const s = specs[0];
    expect(s).toMatchObject({ scoring: 'logprobs', actionWords: ['TRANSFER', 'RETAIN'], labels: { TRANSFER: 'C', RETAIN: 'D' } });
    expect(s.factors).toEqual({ condition: 'minimal', world: 'regional', format: 'canonical-prose' });
    expect(s.framing).toBe('minimal/regional/canonical-prose');
    // PD from the row player's side: payoffs[my action][other's action].
    expect(s.context.game!.payoffs).toEqual({ C: { C: [3, 3], D: [0, 5] }, D: { C: [5, 0], D: [1, 1] } });
  });

  it('conditions substitute the context slot, never stack', () => {
    const prompt = (c: string, w = 'regional', f = 'canonical-prose') => renderEnrichmentCell(e, c, w, f).prompt;
    const minimal = prompt('minimal');
    // Role, task and the world difference are in every condition; minimal has nothing else.
    expect(minimal).toContain('emergency-supplies manager of hospital A');
    expect(minimal).toContain('regional network');
    expect(prompt('minimal', 'local')).toContain('no regional body coordinates');
    for (const marker of ['loading dock', 'chief executive', 'supply-sharing procedure', 'required to follow']) expect(minimal).not.toContain(marker);
    // Padding has no organizational roles; social background no padding; descriptive has no requirement.
    expect(prompt('neutral-padding')).toContain('loading dock');
    expect(prompt('generic-social')).not.toContain('loading dock');
    expect(prompt('generic-social')).toContain('chief executive');
    expect(prompt('descriptive-grounding')).not.toContain('chief executive');
    expect(prompt('descriptive-grounding')).toContain('supply-sharing procedure');
    expect(prompt('descriptive-grounding')).not.toContain('required to follow');
    // Normative = descriptive + the requirement (the same three facts, one more).
    const norm = prompt('normative-grounding');
    expect(norm).toContain('required to follow the network\'s supply-sharing procedure');
    expect(norm.replace(' As the supplies manager of a member hospital, you are required to follow the network\'s supply-sharing procedure.', '')).toBe(prompt('descriptive-grounding'));
    // Grounding differs by world.
    expect(prompt('descriptive-grounding', 'local')).toContain('no provision for transfers');
  });

  it('the four formats carry the same facts; every prompt ends with the one-word request', () => {
    const ask = 'Answer with exactly one word, either TRANSFER or RETAIN, and nothing else.';
    const [prose, bullets, kv, para] = e.formats.map((f) => renderEnrichmentCell(e, 'descriptive-grounding', 'local', f.id).prompt);
    for (const p of [prose, bullets, kv, para]) expect(p.endsWith(`\n\n${ask}`)).toBe(true);
    const sentences = prose.slice(0, -ask.length).split(/(?<=[.?])\s+/).map((s) => s.trim()).filter(Boolean);
    for (const s of sentences) expect(bullets, s).toContain(s); // bullets restate each canonical sentence
    // Hand count of facts: role 1 + world 1 + grounding 3 + situation 2 + payoffs 5 + question 1 = 13.
    expect(bullets.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(13);
    expect(kv).toMatch(/^Role: emergency-supplies manager of hospital A$/m);
    expect(kv).toMatch(/^Both TRANSFER: If both managers TRANSFER, each hospital scores 3\.$/m);
    expect(para).toContain('You manage the emergency supplies at hospital A.');
    expect(para).not.toContain('You are the emergency-supplies manager');
    // Payoff placeholders are filled with the design's numbers in every format.
    for (const p of [prose, bullets, kv, para]) for (const v of ['scores 3', 'scores 0', 'scores 5', 'scores 1']) expect(p.replace(/gets (\d)/g, 'scores $1').replace(/the score is (\d)/g, 'scores $1')).toContain(v);
  });

  it('the simulated twin has the same texts and structure, labelled synthetic', () => {
    const sim = loadDesign(join(DESIGNS, 'hospital-transfer-sim.yaml'));
    expect(sim.synthetic).toBe(true);
    expect(sim.models.every((m) => m.provider === 'simulated')).toBe(true);
    expect(sim.enrichment).toEqual(e);
    expect(sim.trials).toBe(d.trials);
    expect(expandDesign(sim).map((s) => s.prompt)).toEqual(specs.map((s) => s.prompt));
  });

  it('samegame prompts lists one prompt per model × condition × world × format', () => {
    const p = reviewPrompts(d, { model: 'Sol' });
    expect(p).toHaveLength(40);
    expect(p[0].file).toBe('Sol/hospital-transfer/minimal/regional/canonical-prose.txt');
    expect(reviewPrompts(d, { framing: 'normative-grounding/local/bullets' })).toHaveLength(2);
    expect(message(() => reviewPrompts(d, { framing: 'normative/local/bullets' }))).toMatch(/--framing "normative\/local\/bullets" is not in the design/);
  });
});

describe('the context-enrichment summary variant (enrichment-paraphrase.yaml)', () => {
  const d = loadDesign(join(DESIGNS, 'enrichment-paraphrase.yaml'));
  const e = d.enrichment!;
  it('cooperate/defect, four enrichment types, original + three paraphrases, a payoff change, sampled 20 times at 0.7', () => {
    expect(e.actions).toEqual(['COOPERATE', 'DEFECT']);
    expect(e.conditions.map((c) => c.id)).toEqual(['neutral-padding', 'generic-social', 'descriptive-grounding', 'normative-grounding']);
    expect(e.formats.map((f) => f.wording)).toEqual([0, 1, 2, 3]);
    expect(d.scoring).toBe('sample');
    expect(d.trials).toBe(20);
    expect(d.models.every((m) => m.decoding.temperature === 0.7)).toBe(true);
    expect(e.direction).toEqual({ higher: 'cooperation-rewarded', lower: 'standard' });
    const specs = expandDesign(d);
    expect(specs).toHaveLength(2 * 4 * 2 * 4 * 20);
    const rewarded = specs.find((s) => s.factors.world === 'cooperation-rewarded')!;
    expect(rewarded.context.game!.payoffs.C.C).toEqual([4.5, 4.5]);
    expect(rewarded.prompt).toContain('a payoff of 4.5');
    expect(specs.find((s) => s.factors.world === 'standard')!.context.game!.payoffs.C.C).toEqual([3, 3]);
  });
  it('the payoff change moves the simulated agent the registered way (hand: λ = 4, Δu −0.3 → −0.15)', () => {
    // Standard PD at q = ½: ū(C) = 1.5, ū(D) = 3 over range 5 → Δu = −0.3; with R = 4.5: ū(C) = 2.25 → Δu = −0.15.
    const m = { id: 'S', provider: 'simulated', model: 'S', options: {} };
    const [std, rew] = ['standard', 'cooperation-rewarded'].map((w) => expandDesign(d).find((s) => s.factors.world === w)!.context.game!);
    expect(simulatedPCooperate(m, std, 'x')).toBeCloseTo(1 / (1 + Math.exp(1.2)), 12);
    expect(simulatedPCooperate(m, rew, 'x')).toBeCloseTo(1 / (1 + Math.exp(0.6)), 12);
  });
});

describe('simulated agents answer context-enrichment trials', () => {
  it('effects add by matching factor levels; call noise varies calls, not the cell', async () => {
    const d = parseDesign(SMALL, 'small.yaml');
    const specs = expandDesign(d);
    const m = specs[0].model;
    const g = specs[0].context.game!;
    // Hand: λ = 0, intercept 0, +2 in the regional world → logistic(2) = 0.8807970779778823; local → 0.5.
    expect(simulatedPCooperate(m, g, 'x', 0, { world: 'regional', condition: 'minimal' })).toBeCloseTo(0.8807970779778823, 12);
    expect(simulatedPCooperate(m, g, 'x', 0, { world: 'local' })).toBe(0.5);
    const provider = createSimulatedProvider();
    const signal = new AbortController().signal;
    const reg = await provider.complete({ spec: specs.find((s) => s.factors.world === 'regional')!, signal });
    expect(reg.firstTokenTopLogprobs!.map((t) => t.token)).toContain('TRA');
    expect(JSON.parse(reg.raw).p_cooperate_true).toBeCloseTo(0.8807970779778823, 12);
    const noisy = { ...specs[0], model: { ...m, options: { call_noise: 1 } } };
    const ps = await Promise.all([0, 1, 2].map((rep) => provider.complete({ spec: { ...noisy, rep }, signal }).then((r) => JSON.parse(r.raw).p_cooperate_true as number)));
    expect(new Set(ps).size).toBe(3);
  });
});

describe('context-enrichment designs: errors name the file, line and document path', () => {
  it('an unknown slot in a condition (file)', () => {
    const f = join(FIX, 'bad-slot.yaml');
    const m = message(() => loadDesign(f));
    expect(m).toContain(`${f}:24: field "conditions[1].slots.contxt": no slot "contxt" in the template (slots: "role", "world", "context")`);
    expect(m).toContain(`${f}:8: field "template[2]": template slot "context" is filled by neither base, worlds nor conditions`);
  });
  const edit = (from: string, to: string) => {
    expect(SMALL).toContain(from);
    return SMALL.replace(from, to);
  };
  it.each([
    [['kind: context-enrichment', 'kind: enrichment'], 'x.yaml:2: field "kind": "enrichment" is not a design kind (kind: context-enrichment;'],
    [['registered_direction: { higher: regional, lower: local }', 'registered_direction: { higher: regional, lower: locale }'],
      'x.yaml:27: field "registered_direction.lower": "locale" is not a world of this design (worlds: "regional", "local")'],
    [['registered_direction: { higher: regional, lower: local }', 'registered_direction: { higher: regional, lower: regional }'], 'field "registered_direction.lower": higher and lower must be different worlds'],
    [['actions: [TRANSFER, RETAIN]', 'actions: [TRANSFER, TAKE]'], 'x.yaml:10: field "actions": the labels "TRANSFER" and "TAKE" start with the same character'],
    [['Both {D}: {P} each."', 'Both {D}: {Q} each."'], 'x.yaml:17: field "base.ask[0].text": unknown placeholder {Q} (known: {C} {D} {T} {R} {P} {S})'],
    [['  - { id: kv, style: key-value }', '  - { id: kv, style: key-value }\n  - { id: para, style: prose, wording: 2 }'],
      'field "base.role[0].paraphrases": format "para" uses wording 2, but this fact has 1 paraphrase'],
    [['{ key: Role, text: You run depot A.', '{ text: You run depot A.'], 'x.yaml:15: field "base.role[0].key": required field is missing: format "kv" has style key-value'],
    [['        local:\n', '        locale:\n'], 'field "conditions[1].slots.context.locale": no world "locale" in this design'],
    [['        local:\n', '        locale:\n'], 'field "conditions[1].slots.context": contents for world "local" are missing'],
    [['  - id: grounded', '  - id: minimal'], 'x.yaml:35: field "conditions[1].id": duplicate condition id "minimal" (first used at conditions[0].id)'],
    [['  - { id: list, style: bullets }', '  - { id: list, style: table }'], 'x.yaml:30: field "formats[1].style": Invalid option: expected one of "prose"|"bullets"|"key-value"'],
    [['template: [role, world, context, ask]', 'template: [role, world, context, ask]\nconditions_extra: 1'], 'field "conditions_extra": unknown field'],
    [['  ask:\n', '  world:\n'], 'field "worlds[0].slots.world": slot "world" is already filled by base'],
    [['logit: 2 }] } }', 'logit: 2 }, { when: { wrld: local }, logit: 1 }] } }'], 'x.yaml:6: field "models[0].options.effects[1].when.wrld": effects can match condition, world or format, not "wrld"'],
    [['logit: 2 }] } }', 'logit: 2 }, { when: { condition: padded }, logit: 1 }] } }'], 'field "models[0].options.effects[1].when.condition": no condition "padded" in this design (known: "minimal", "grounded")'],
    [['trials: 2', 'trials: 0'], 'x.yaml:7: field "trials": Too small'],
    [['  - id: local\n', '  - id: local\n    payoffs: { T: 5, R: high, P: 1, S: 0 }\n'], 'field "worlds[1].payoffs.R": expected a finite number (got string)'],
  ])('%j', ([from, to], want) => {
    expect(message(() => parseDesign(edit(from, to), 'x.yaml'))).toContain(want);
  });
});

describe('the small fixture', () => {
  it('parses, hashes stably and renders the slots in template order', () => {
    const d = parseDesign(SMALL, 'small.yaml');
    expect(designHash(d)).toBe(designHash(parseDesign(`# comment\n${SMALL}`, 'b.yaml')));
    expect(designHash(d)).not.toBe(designHash(parseDesign(SMALL.replace('Each depot works on its own.', 'Each depot works alone.'), 'c.yaml')));
    const r = renderEnrichmentCell(d.enrichment!, 'grounded', 'local', 'prose');
    expect(r.prompt).toBe([
      'You run depot A.', '', 'Each depot works on its own.', '', "Depot A's procedure covers its own stock only.", '',
      'Both TRANSFER: 3 each. You TRANSFER, they RETAIN: 0 and 5. Both RETAIN: 1 each.', '',
      'Answer with exactly one word, either TRANSFER or RETAIN, and nothing else.',
    ].join('\n'));
    expect(renderEnrichmentCell(d.enrichment!, 'minimal', 'regional', 'kv').prompt.split('\n').slice(0, 3)).toEqual([
      'Role: You run depot A.', 'Arrangement: A regional centre coordinates the depots.', 'Payoffs: Both TRANSFER: 3 each. You TRANSFER, they RETAIN: 0 and 5. Both RETAIN: 1 each.']);
  });
  it('data/designs/enrichment.schema.json is current (regenerate: npx tsc -p . && node scripts/enrichment-schema.mjs)', () => {
    expect(readFileSync(join(DESIGNS, 'enrichment.schema.json'), 'utf8')).toBe(`${JSON.stringify(enrichmentJsonSchema(), null, 2)}\n`);
  });
});
