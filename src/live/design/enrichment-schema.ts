/**
 * The schema of a context-enrichment design (`kind: context-enrichment`; the context-enrichment paper): a base
 * template of slots, condition modules that fill their slots (each condition REPLACES the previous
 * one's contents — substitutions, not stacks, so "longer" and "more functional" stay apart), two
 * worlds with a registered direction, and formats that lay out the same facts in different ways.
 * Cross-field rules (slots, worlds, placeholders, wordings) are checked in enrichment.ts.
 */
import { z } from 'zod';
import { decodingSchema, MAX_TRIALS_PER_CELL, modelSchema, pricesSchema } from './schema.js';
import { designMsg } from './messages.js';

const id = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected an id of letters, digits, ".", "_" or "-", starting with a letter or digit');

/** Layouts of the same facts (the context-enrichment paper §M: canonical prose, bullet list, key-value table, paraphrased prose). */
export const FORMAT_STYLES = ['prose', 'bullets', 'key-value'] as const;
export type FormatStyle = (typeof FORMAT_STYLES)[number];

export const factSchema = z.strictObject({
  key: z.string().min(1).optional().describe('the fact\'s label in a key-value format (required when the design has one)'),
  text: z.string().min(1).describe('the fact in its canonical wording; {C} {D} name the actions, {T} {R} {P} {S} the payoffs'),
  value: z.string().min(1).optional().describe('what a key-value format shows after the key (defaults to text)'),
  paraphrases: z.array(z.string().min(1)).optional().describe('the same fact reworded; a format with wording k uses the k-th'),
});

const facts = z.array(factSchema);
/** A slot's contents: facts, or facts by world id when the content differs between worlds. */
const slotContent = z.union([facts, z.record(z.string(), facts)]);
const slots = z.record(z.string(), slotContent);

export const payoffsSchema = z.strictObject({
  T: z.number().describe('temptation: my payoff when I play the second action and the other the first'),
  R: z.number().describe('reward: both play the first action'),
  P: z.number().describe('punishment: both play the second action'),
  S: z.number().describe('sucker: I play the first action and the other the second'),
}).describe('symmetric 2×2 payoffs of the first action (C) and the second (D)');

const conditionSchema = z.strictObject({
  id,
  function: z.string().min(1).describe('what this condition adds and why (the context-enrichment paper §M, its row of the condition table)'),
  slots: slots.optional().describe('the contents of the condition slots; a slot left out is empty (no stacking)'),
});

const worldSchema = z.strictObject({
  id,
  description: z.string().optional(),
  slots: z.record(z.string(), facts).optional().describe('the contents of the world slots'),
  payoffs: payoffsSchema.optional().describe('this world\'s payoffs when the change between worlds is a payoff change'),
});

const formatSchema = z.strictObject({
  id,
  style: z.enum(FORMAT_STYLES).optional().describe('a built-in layout of the facts'),
  wording: z.number().int().min(0).optional().describe('0 (default): canonical wording; k: every fact\'s k-th paraphrase'),
  template: z.string().min(1).optional()
    .describe(('a format template: every slot as a placeholder ({slot}: its facts as prose) and {C} {D} {payoffs} {you.XY} {other.XY} {answer}; {{ }} for ' +
      'braces (docs/methods.md §18a)')),
  template_file: z.string().min(1).optional().describe('a file holding the format template, relative to the design file'),
}).describe('a format: {id, style, wording} or {id, template | template_file, wording}');

export const enrichmentDesignSchema = z.strictObject({
  kind: z.literal('context-enrichment').describe('a context-enrichment design (without kind: a two-framing design)'),
  name: z.string().min(1).describe('the design\'s name; run stores its trials in runs/NAME.sqlite unless --store says otherwise'),
  description: z.string().optional().describe('free text about the design'),
  synthetic: z.boolean().optional().describe('true when the design\'s data are synthetic (simulated models)'),
  models: z.array(modelSchema).min(1).describe('the models to query'),
  scenario: id.describe('the decision scenario (the trials\' game id)'),
  actions: z.tuple([z.string(), z.string()]).describe('[first action, second action]: the first is the cooperative one (TRANSFER)'),
  payoffs: payoffsSchema,
  system: z.string().min(1).optional().describe('system message, the same for every cell'),
  template: z.array(id).min(1).describe('the base template: its slots in order'),
  base: slots.optional().describe('the contents of the slots every cell shares'),
  conditions: z.array(conditionSchema).min(1).describe('context conditions, each a substitution module'),
  worlds: z.array(worldSchema).length(2).describe('the two social worlds'),
  registered_direction: z.strictObject({
    higher: id.describe('the world where the first action is expected more often'),
    lower: id,
  }).describe('registered before the run: which world should show more of the first action'),
  formats: z.array(formatSchema).min(2).describe('layouts of the same content; the first is the canonical one'),
  trials: z.number().int().min(1).max(MAX_TRIALS_PER_CELL,
    designMsg.trialsPerCell(MAX_TRIALS_PER_CELL)).describe('calls per model × condition × world × format cell'),
  decoding: decodingSchema.optional().describe('decoding settings of every model (a model\'s own decoding overrides them)'),
  scoring: z.enum(['sample', 'logprobs']).optional().describe('logprobs (default): first-token probabilities (docs/methods.md); sample: parse the text'),
  prices: pricesSchema.optional().describe('for --dry-run cost estimates'),
  published_reference: z.enum(['greiche-2026']).optional().describe('published metrics to draw beside this run on the selective-robustness plane'),
});

export type EnrichmentDocument = z.output<typeof enrichmentDesignSchema>;
export type FactDocument = z.output<typeof factSchema>;

/** The JSON Schema of a context-enrichment design file, for editors. */
export function enrichmentJsonSchema(): Record<string, unknown> {
  const s = z.toJSONSchema(enrichmentDesignSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...s, title: 'samegame context-enrichment design',
    description: 'Conditions × worlds × formats (the context-enrichment paper; samegame docs/methods.md).' };
}
